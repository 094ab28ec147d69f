"""Text embeddings for dense search: engines behind one protocol, and the model manager.

Engines import onnxruntime lazily, so importing this package stays cheap for
code (and tests) that only needs the protocol or the manager's catalogue.
"""

from desktop_kb.embed.catalogue import DEFAULT_MODEL, KNOWN_MODELS, KnownModel
from desktop_kb.embed.engine import (
    DEFAULT_BATCH_SIZE,
    EmbeddingEngine,
    ModelManifest,
    NullEngine,
    l2_normalize,
)
from desktop_kb.embed.errors import ModelInstallError, ModelNotFoundError
from desktop_kb.embed.hashing import ProgressCallback
from desktop_kb.embed.manager import ModelManager

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_MODEL",
    "KNOWN_MODELS",
    "EmbeddingEngine",
    "KnownModel",
    "ModelInstallError",
    "ModelManager",
    "ModelManifest",
    "ModelNotFoundError",
    "NullEngine",
    "ProgressCallback",
    "l2_normalize",
]
