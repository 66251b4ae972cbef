"""The results folder: a local path or any fsspec URL (file://, s3://,
gcs://, memory://, …).

Every file is written under a temporary name in its final folder and then
renamed (fsspec ``mv``), so a reader sees either the old complete file or
the new complete one, never half of one; on a local disk the rename is
atomic. A point's ``result.json`` is written last: a folder without it is
an unfinished point.
"""
import json
import os
import posixpath
import uuid

import fsspec

RESULT = "result.json"
ERROR = "error.json"
NOTEBOOK = "notebook.ipynb"
FAILED_NOTEBOOK = "failed.ipynb"


class Store:
    """A results folder (path or URL). Picklable: it is sent to workers."""

    def __init__(self, url):
        self.url = str(url).rstrip("/") or "/"
        self.fs, self.root = fsspec.core.url_to_fs(self.url)
        self.root = self.root.rstrip("/") or "/"

    def __reduce__(self):
        return (Store, (self.url,))

    def path(self, *parts):
        return posixpath.join(self.root, *parts)

    def display(self, *parts):
        """The URL (or local path) of a file, for messages."""
        if "://" in self.url:
            return "/".join([self.url, *parts])
        return os.path.join(self.url, *parts)

    def makedirs(self, *parts):
        self.fs.makedirs(self.path(*parts), exist_ok=True)

    def exists(self, *parts):
        return self.fs.exists(self.path(*parts))

    def read_text(self, *parts):
        with self.fs.open(self.path(*parts), "r", encoding="utf-8") as f:
            return f.read()

    def read_json(self, *parts):
        return json.loads(self.read_text(*parts))

    def _commit(self, write, parts):
        final = self.path(*parts)
        folder = posixpath.dirname(final)
        self.fs.makedirs(folder, exist_ok=True)
        tmp = posixpath.join(folder, f".{posixpath.basename(final)}.tmp-{uuid.uuid4().hex[:12]}")
        try:
            write(tmp)
            self.fs.mv(tmp, final)
        except BaseException:
            try:
                if self.fs.exists(tmp):
                    self.fs.rm(tmp)
            except Exception:
                pass
            raise

    def write_bytes(self, data, *parts):
        """Write data to the file parts under a temporary name, then rename."""

        def write(tmp):
            with self.fs.open(tmp, "wb") as f:
                f.write(data)

        self._commit(write, parts)

    def write_json(self, obj, *parts):
        self.write_bytes((json.dumps(obj, indent=1, sort_keys=True, default=str) + "\n").encode(), *parts)

    def put_file(self, local, *parts):
        """Upload the local file, then rename it into place."""
        self._commit(lambda tmp: self.fs.put_file(local, tmp), parts)

    def remove(self, *parts):
        p = self.path(*parts)
        if self.fs.exists(p):
            self.fs.rm(p)

    def point_folders(self):
        """The names of the folders directly under the root."""
        if not self.fs.exists(self.root):
            return []
        out = []
        for info in self.fs.ls(self.root, detail=True):
            if info.get("type") == "directory":
                out.append(posixpath.basename(info["name"].rstrip("/")))
        return sorted(out)

    def records(self):
        """Every point's result.json under the root, as {id: record}."""
        out = {}
        for pid in self.point_folders():
            if self.exists(pid, RESULT):
                try:
                    out[pid] = self.read_json(pid, RESULT)
                except (OSError, ValueError):
                    continue
        return out
