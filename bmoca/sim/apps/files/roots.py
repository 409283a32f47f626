"""What the Files app shows: the roots of its drawer and the documents under each.

The documents come from the phone's shared storage (`/sdcard`), as Android 10's providers
expose it: MediaDocumentsProvider groups images and videos into buckets (one per folder,
`bucket_id` = Java's `String.hashCode` of the folder's lower-cased path, as MediaStore
computes it) and lists audio; DownloadStorageProvider shows `Download/`;
ExternalStorageProvider shows the whole storage as folders. Every document has the
`content://` URI that `DirectoryFragment` prints when it shows it.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from urllib.parse import quote, unquote

from bmoca.sim.system.vfs import EXTERNAL, VirtualFS

MEDIA = "content://com.android.providers.media.documents/document/"
DOWNLOADS = "content://com.android.providers.downloads.documents/document/"
STORAGE = "content://com.android.externalstorage.documents/document/"

IMAGE_TYPES = {"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
               "gif": "image/gif", "webp": "image/webp", "bmp": "image/bmp",
               "heic": "image/heic"}
VIDEO_TYPES = {"mp4": "video/mp4", "3gp": "video/3gpp", "mkv": "video/x-matroska",
               "webm": "video/webm", "mov": "video/quicktime"}
AUDIO_TYPES = {"mp3": "audio/mpeg", "m4a": "audio/mp4", "ogg": "audio/ogg",
               "wav": "audio/x-wav", "flac": "audio/flac", "aac": "audio/aac",
               "amr": "audio/amr", "mid": "audio/midi"}
OTHER_TYPES = {"pdf": "application/pdf", "txt": "text/plain", "zip": "application/zip",
               "apk": "application/vnd.android.package-archive", "html": "text/html",
               "json": "application/json", "xml": "text/xml", "csv": "text/csv"}
FOLDER = "vnd.android.document/directory"


def mime_type(name: str) -> str:
    ext = name.rpartition(".")[2].lower() if "." in name else ""
    for table in (IMAGE_TYPES, VIDEO_TYPES, AUDIO_TYPES, OTHER_TYPES):
        if ext in table:
            return table[ext]
    return "application/octet-stream"


def java_hash(text: str) -> int:
    """java.lang.String.hashCode (UTF-16 code units, 32-bit signed)."""
    data = text.encode("utf-16-be")
    value = 0
    for i in range(0, len(data), 2):
        value = (31 * value + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


@dataclass(frozen=True)
class Document:
    """One row of a directory listing: a file, or a folder to open."""

    name: str
    uri: str
    mime: str
    size: int = 0
    path: str = ""
    """Where it is on the storage ("" for a virtual folder such as a bucket)."""

    @property
    def is_folder(self) -> bool:
        return self.mime == FOLDER


@dataclass(frozen=True)
class Root:
    """An entry of the roots drawer: its title's string key, icon, and top document."""

    key: str
    icon: str
    uri: str | None
    """The document `Showing directory` prints; None for Recent, which shows no directory."""


RECENT = Root("recent", "schedule", None)
IMAGES = Root("images", "image", MEDIA + "images_root")
VIDEOS = Root("videos", "videocam", MEDIA + "videos_root")
AUDIO = Root("audio", "audiotrack", MEDIA + "audio_root")
DOWNLOADS_ROOT = Root("downloads", "download", DOWNLOADS + "downloads")
DEVICE = Root("device", "smartphone", STORAGE + quote("primary:", safe=""))
ROOTS: tuple[Root, ...] = (RECENT, IMAGES, VIDEOS, AUDIO, DOWNLOADS_ROOT, DEVICE)
"""The drawer's order on the Android 10 image: the media and download roots, then storage."""


def _files(vfs: VirtualFS) -> list[str]:
    prefix = EXTERNAL + "/"
    return sorted(p for p in vfs.files if p.startswith(prefix))


def _file(vfs: VirtualFS, path: str, uri: str) -> Document:
    name = posixpath.basename(path)
    return Document(name, uri, mime_type(name), len(vfs.files[path]), path)


def _media(vfs: VirtualFS, kind: str, types: dict[str, str]) -> list[str]:
    return [p for p in _files(vfs) if p.rpartition(".")[2].lower() in types
            and "/." not in p[len(EXTERNAL):]]


def _buckets(vfs: VirtualFS, kind: str, types: dict[str, str]) -> list[Document]:
    folders = sorted({posixpath.dirname(p) for p in _media(vfs, kind, types)},
                     key=lambda d: posixpath.basename(d).casefold())
    return [Document(posixpath.basename(d) or "0",
                     MEDIA + quote(f"{kind}_bucket:{java_hash(d.lower())}", safe=""), FOLDER,
                     path=d) for d in folders]


def _bucket_items(vfs: VirtualFS, kind: str, types: dict[str, str],
                  folder: str) -> list[Document]:
    items = [p for p in _media(vfs, kind, types) if posixpath.dirname(p) == folder]
    return [_file(vfs, p, MEDIA + quote(f"{kind[:-1]}:{java_hash(p)}", safe="")) for p in items]


def storage_uri(path: str) -> str:
    """ExternalStorageProvider's document id: `primary:` plus the path below the storage."""
    relative = path[len(EXTERNAL):].lstrip("/")
    return STORAGE + quote(f"primary:{relative}", safe="")


def _folder(vfs: VirtualFS, path: str, uri_of) -> list[Document]:
    if not vfs.is_dir(path):  # removed behind the app's back: an empty directory, as on Android
        return []
    rows = []
    for name in vfs.listdir(path):
        if name.startswith("."):
            continue
        child = posixpath.join(path, name)
        if vfs.is_dir(child):
            rows.append(Document(name, uri_of(child), FOLDER, path=child))
        else:
            rows.append(_file(vfs, child, uri_of(child)))
    rows.sort(key=lambda d: (not d.is_folder, d.name.casefold()))
    return rows


def listing(vfs: VirtualFS, root: Root, folder: Document | None) -> list[Document]:
    """The rows shown for `root`, or for `folder` opened inside it."""
    if root is RECENT:
        recent = [p for p in _files(vfs) if mime_type(p) != "application/octet-stream"
                  and "/Android/" not in p]
        return [_file(vfs, p, storage_uri(p)) for p in reversed(recent)][:64]
    if root is AUDIO:
        return [_file(vfs, p, MEDIA + quote(f"audio:{java_hash(p)}", safe=""))
                for p in _media(vfs, "audio", AUDIO_TYPES)]
    for media, kind, types in ((IMAGES, "images", IMAGE_TYPES), (VIDEOS, "videos", VIDEO_TYPES)):
        if root is media:
            if folder is None:
                return _buckets(vfs, kind, types)
            return _bucket_items(vfs, kind, types, folder.path)
    if root is DOWNLOADS_ROOT:
        base = folder.path if folder else f"{EXTERNAL}/Download"
        return _folder(vfs, base, lambda p: DOWNLOADS + quote(f"raw:{p}", safe=""))
    base = folder.path if folder else EXTERNAL
    return _folder(vfs, base, storage_uri)


def mime_matches(accept: str, mime: str) -> bool:
    """MimeTypes.mimeMatches: `*/*`, `image/*` or an exact type against a document's type."""
    if accept in ("*/*", "*"):
        return True
    kind, _, sub = accept.partition("/")
    return accept == mime or (sub == "*" and mime.startswith(kind + "/"))


def root_accepts(root: Root, accept: str) -> bool:
    """Whether a root may hold documents of the wanted type: the media roots declare theirs
    (`image/*`, `video/*`, `audio/*`); Recent, Downloads and the storage hold any type."""
    declared = {IMAGES.key: "image/", VIDEOS.key: "video/", AUDIO.key: "audio/"}.get(root.key)
    return declared is None or accept in ("*/*", "*") or accept.startswith(declared)


def path_of(vfs: VirtualFS, uri: str) -> str | None:
    """Where on the storage a document URI this module made lies (what the provider's
    openDocument reads); None when it names no file there now."""
    for base, prefix in ((STORAGE, "primary:"), (DOWNLOADS, "raw:")):
        if uri.startswith(base):
            doc_id = unquote(uri[len(base):])
            if not doc_id.startswith(prefix):
                return None
            rest = doc_id[len(prefix):]
            path = rest if prefix == "raw:" else posixpath.join(EXTERNAL, rest)
            return path if path in vfs.files else None
    if uri.startswith(MEDIA):
        kind, _, number = unquote(uri[len(MEDIA):]).partition(":")
        types = {"image": IMAGE_TYPES, "video": VIDEO_TYPES, "audio": AUDIO_TYPES}.get(kind)
        if types is not None:
            return next((p for p in _media(vfs, kind, types) if str(java_hash(p)) == number),
                        None)
    return None


def human_size(size: int) -> str:
    """Formatter.formatShortFileSize's English form (B, kB, MB, GB with 1000 as the step)."""
    value = float(size)
    for unit in ("B", "kB", "MB", "GB"):
        if value < 900 or unit == "GB":
            if unit == "B":
                return f"{int(value)} B"
            return f"{value:.2f} {unit}" if value < 10 else f"{value:.0f} {unit}"
        value /= 1000
    return f"{value:.0f} GB"
