# Two commands matter: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Everything Python that ships or checks what ships (packaging/check_bundle.py runs in CI).
LINT_PATHS := desktop_kb tests benchmarks packaging tools

.PHONY: run test lint bench clean dist dist-check ci ci-lane1 ci-lane2

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip >/dev/null
	$(PY) -m pip install -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/desktop-kb

test: $(STAMP)
	$(PY) -m pytest -q
	$(VENV)/bin/ruff check $(LINT_PATHS)

lint: $(STAMP)
	$(VENV)/bin/ruff check $(LINT_PATHS)

# Speed is measured here, never asserted in tests. bench_retrieval needs the default model
# installed (`.venv/bin/desktop-kb models install`).
bench: $(STAMP)
	$(PY) benchmarks/bench_foundation.py
	$(PY) benchmarks/bench_gate.py
	$(PY) benchmarks/bench_gui.py
	$(PY) benchmarks/bench_retrieval.py
	$(PY) benchmarks/bench_xproc.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/bench_follow.py

clean:
	rm -rf $(VENV) build dist *.egg-info

# `make dist`: dist/*.whl + dist/*.tar.gz (python -m build) and the standalone app folder
# dist/desktop-kb/ (PyInstaller, packaging/desktop-kb.spec). `make dist-check` runs the
# bundle in a bare environment: --self-check, models install --from FILE.whl, GUI start.
# It checks, once each; how fast the bundle starts is benchmarks/bench_bundle_start.py.
# One pip run installs both extras (a fresh clone's `make ci` needs no separate dev install).
DIST_STAMP := $(VENV)/.dist-installed
$(DIST_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip >/dev/null
	$(PY) -m pip install -e '.[dev,dist]'
	touch $(STAMP) $(DIST_STAMP)

dist: $(DIST_STAMP)
	rm -rf dist build/pyinstaller
	$(PY) -m build --outdir dist .
	$(VENV)/bin/pyinstaller --noconfirm --log-level WARN --distpath dist \
		--workpath build/pyinstaller packaging/desktop-kb.spec
	@du -sh dist/desktop-kb

dist-check: dist
	$(PY) packaging/check_bundle.py dist/desktop-kb

# Renders the main screens in English and Chinese into docs/screenshots/ (1280×800, plus 1920×1080).
# Needs a CJK font and, ideally, Xvfb; both are installed with apt only if missing.
SCREENSHOT_DEPS := xvfb xauth fonts-noto-cjk libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0
.PHONY: screenshots
screenshots: $(STAMP)
	@if ! command -v xvfb-run >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then \
		if command -v apt-get >/dev/null 2>&1; then \
			SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
			$$SUDO apt-get install -y $(SCREENSHOT_DEPS) || echo "could not install $(SCREENSHOT_DEPS); continuing"; \
		fi; \
	fi
	@if command -v xvfb-run >/dev/null 2>&1; then \
		xvfb-run -a -s "-screen 0 2000x1200x24" $(PY) tools/screenshots.py; \
	else \
		QT_QPA_PLATFORM=offscreen $(PY) tools/screenshots.py; \
	fi

# `make ci` (.ci/run): `make test` + `make dist-check`, the same tests and checks, in two
# lanes at once on a two-core machine. Lane 1: the tests not marked slow, then ruff. Lane 2:
# the standalone bundle (dist-check), then the slow tests and a few multi-process test files
# (marked ci_lane2 by conftest.py) so the lanes take about as long; every test runs in
# exactly one lane. Each lane is its own pytest process (pytest numbers and locks its temp
# folders, so two sessions never share one); tests use port 0 and their own per-user
# folders (conftest.py). The wheel test installs dist's wheel instead of building its own.
# A lane's output is printed when it ends, with its slowest tests;
# every test's time goes to build/ci-lane*.xml. make waits for both lanes and fails if
# either does.
CI_PYTEST := $(PY) -m pytest -q --durations=25
ci: $(DIST_STAMP)
	$(MAKE) --no-print-directory -j2 --output-sync=target ci-lane1 ci-lane2

ci-lane1: $(STAMP)
	$(CI_PYTEST) -m "not slow and not ci_lane2" --junitxml=build/ci-lane1.xml
	$(VENV)/bin/ruff check $(LINT_PATHS)

ci-lane2: dist-check
	DESKTOP_KB_TEST_WHEEL="$$(ls $(CURDIR)/dist/desktop_kb-*.whl)" \
		$(CI_PYTEST) -m "slow or ci_lane2" --junitxml=build/ci-lane2.xml
