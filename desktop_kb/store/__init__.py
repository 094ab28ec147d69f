"""The store: ``library.sqlite``, the only source of truth (I1). No Qt here."""

from desktop_kb.store.connection import open_store
from desktop_kb.store.errors import SchemaTooNewError, StoreError

__all__ = ["open_store", "StoreError", "SchemaTooNewError"]
