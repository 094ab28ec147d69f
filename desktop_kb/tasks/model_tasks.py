"""Embedding-model work for Settings, off the GUI thread.

Listing reads manifests from the data folder; installing downloads, converts
and hashes for seconds to minutes. None of it may run on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from desktop_kb.embed.catalogue import KNOWN_MODELS, KnownModel
from desktop_kb.embed.manager import ModelManager
from desktop_kb.embed.wheels import pip_available
from desktop_kb.library import Library

Report = Callable[[str, int, int], None]


@dataclass(frozen=True)
class ModelRow:
    id: str
    title: str
    dim: int
    installed: bool
    in_use: bool
    origin: str
    """Where it comes from: "package" (pip), "hub", "wheel file" (no pip in this
    copy), "folder" (an export the person brings), "installed" (a folder
    installed earlier that the catalogue does not know)."""


@dataclass(frozen=True)
class ModelsSnapshot:
    rows: list[ModelRow]
    active: str | None
    can_switch: bool


@dataclass(frozen=True)
class InstallOutcome:
    name: str
    in_use: bool


def model_manager(library: Library) -> ModelManager:
    manager = getattr(library, "models", None)
    return manager if isinstance(manager, ModelManager) else ModelManager(library.paths.data_dir)


def _origin(known: KnownModel, pip: bool) -> str:
    if known.wheel is not None:
        return "package" if pip else "wheel file"
    return "hub" if known.hub is not None else "folder"


def load_models(library: Library) -> ModelsSnapshot:
    """Every known model plus any other installed one: in use, installed, the rest."""
    installed = {m.id: m for m in model_manager(library).list_installed()}
    active = library.active_model_name()
    pip = pip_available()
    rows = [
        ModelRow(m.id, KNOWN_MODELS[m.id].title if m.id in KNOWN_MODELS else m.source or m.id,
                 m.dim, True, m.id == active,
                 _origin(KNOWN_MODELS[m.id], pip) if m.id in KNOWN_MODELS else "installed")
        for m in installed.values()
    ]
    rows.sort(key=lambda r: not r.in_use)
    rows += [
        ModelRow(k.id, k.title, k.dim, False, False, _origin(k, pip))
        for k in KNOWN_MODELS.values()
        if k.id not in installed
    ]
    return ModelsSnapshot(rows, active, hasattr(library, "use_model"))


def _put_to_use(library: Library, name: str) -> bool:
    """Use a new model only when none is in use (or it replaced the one in use):
    switching away from a working model re-embeds the whole library, which is
    the person's call."""
    active = library.active_model_name()
    if hasattr(library, "use_model") and (active is None or active == name):
        library.use_model(name)
        return True
    return active == name


def install_model(library: Library, name: str, report: Report) -> InstallOutcome:
    manifest = model_manager(library).install(name, report)
    return InstallOutcome(manifest.id, _put_to_use(library, manifest.id))


def install_model_from(library: Library, path: Path, report: Report) -> InstallOutcome:
    """``path`` is a wheel, a model folder, or the ``manifest.json`` inside one."""
    path = Path(path)
    if path.name == "manifest.json":
        path = path.parent
    manifest = model_manager(library).install_from(path, report)
    return InstallOutcome(manifest.id, _put_to_use(library, manifest.id))


def remove_model(library: Library, name: str) -> None:
    if library.active_model_name() == name and hasattr(library, "use_model"):
        library.use_model(None).result()
    model_manager(library).remove(name)


def use_model(library: Library, name: str | None) -> None:
    library.use_model(name)
