"""Where the library keeps its strings: a :class:`Store` (``get``/``set``/``remove``/``keys``),
the browser's ``localStorage`` (:class:`LocalStorage`, a full store raising
:class:`~web.library.entries.StorageFullError`) or a dict (:class:`MemoryStore`, for tests and
for browsers that block storage)."""

from __future__ import annotations

from typing import Any, Protocol

from web.library.entries import StorageFullError


class Store(Protocol):
    """A string key/value store such as localStorage."""

    def get(self, key: str) -> str | None:
        """The value under ``key``, or None when there is none."""

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` completely or not at all (StorageFullError when full)."""

    def remove(self, key: str) -> None:
        """Remove ``key`` (nothing happens when it is absent)."""

    def keys(self) -> list[str]:
        """Every key in the store."""


class MemoryStore:
    """A :class:`Store` in a dict: for tests, and for browsers that block localStorage."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data: dict[str, str] = dict(data or {})

    def get(self, key: str) -> str | None:
        """The value under ``key``, or None."""
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``."""
        self.data[key] = value

    def remove(self, key: str) -> None:
        """Remove ``key`` if present."""
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        """Every key."""
        return list(self.data)


class LocalStorage:
    """The browser's ``localStorage`` as a :class:`Store` (a missing key is JS null there)."""

    def __init__(self, storage: Any = None) -> None:
        if storage is None:
            import js  # type: ignore[import-not-found]  # only in the browser

            storage = js.localStorage
        self._storage = storage

    def get(self, key: str) -> str | None:
        """The value under ``key``, or None (JS null and undefined both mean absent)."""
        value = self._storage.getItem(key)
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        """``localStorage.setItem``; a quota error becomes :class:`StorageFullError`."""
        try:
            self._storage.setItem(key, value)
        except Exception as exc:
            if is_quota_error(exc):
                raise StorageFullError("the browser's storage for this site is full") from exc
            raise

    def remove(self, key: str) -> None:
        """``localStorage.removeItem``."""
        self._storage.removeItem(key)

    def keys(self) -> list[str]:
        """Every key in localStorage."""
        found = (self._storage.key(i) for i in range(int(self._storage.length)))
        return [k for k in found if isinstance(k, str)]


def is_quota_error(exc: BaseException) -> bool:
    """True for the DOMException browsers raise when localStorage is full."""
    name = str(getattr(exc, "name", "") or "")
    text = f"{name} {exc}".lower()
    return "quota" in text
