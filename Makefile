# Two commands matter: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip >/dev/null
	$(PY) -m pip install -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/desktop-kb

test: $(STAMP)
	$(PY) -m pytest -q
	$(VENV)/bin/ruff check desktop_kb tests benchmarks

lint: $(STAMP)
	$(VENV)/bin/ruff check desktop_kb tests benchmarks

bench: $(STAMP)
	$(PY) benchmarks/bench_foundation.py

clean:
	rm -rf $(VENV) build dist *.egg-info
