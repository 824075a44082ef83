"""The build backend of the Python library's sdist (PEP 517), standard library only.

src/clients/python/package.ts puts this file at the sdist's root and names it in
``pyproject.toml`` (``build-backend = "build_backend"``, ``backend-path = ["."]``) with nothing to
require, so that ``pip install <sdist>`` builds the wheel with no index and no network: a fresh
virtual environment holds only pip (Python 3.12's holds no setuptools at all), and pip builds in an
isolated environment that could not reach the one it has anyway. The wheel it builds is the one the
site publishes: the import package under ``src/`` at the wheel's root, and a ``.dist-info`` folder
whose METADATA is the sdist's PKG-INFO.
"""

import base64
import hashlib
import os
import tarfile
import zipfile
from typing import Any, Dict, List, Optional, Tuple

_ROOT = os.path.dirname(os.path.abspath(__file__))
# The same fixed moment as the project's own packing, so the same files make the same archive.
_ZIP_TIME = (2026, 1, 1, 0, 0, 0)
_GENERATOR = "build_backend.py of the sdist"


def _metadata() -> str:
    with open(os.path.join(_ROOT, "PKG-INFO"), encoding="utf-8") as info:
        return info.read()


def _name_and_version() -> Tuple[str, str]:
    fields: Dict[str, str] = {}
    for line in _metadata().splitlines():
        if line == "":
            break
        key, _, value = line.partition(": ")
        fields.setdefault(key, value)
    return fields["Name"], fields["Version"]


def _stem() -> str:
    name, version = _name_and_version()
    return f"{name.replace('-', '_')}-{version}"


def _dist_info_files() -> List[Tuple[str, bytes]]:
    dist_info = f"{_stem()}.dist-info"
    files = [
        (f"{dist_info}/METADATA", _metadata().encode("utf-8")),
        (f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: {_GENERATOR}\nRoot-Is-Purelib: true\nTag: py3-none-any\n".encode("utf-8")),
    ]
    with open(os.path.join(_ROOT, "LICENSE"), "rb") as license_file:
        files.append((f"{dist_info}/LICENSE", license_file.read()))
    return files


def _package_files() -> List[Tuple[str, bytes]]:
    source = os.path.join(_ROOT, "src")
    files: List[Tuple[str, bytes]] = []
    for folder, folders, names in os.walk(source):
        folders.sort()
        for name in sorted(names):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(folder, name)
            with open(path, "rb") as data:
                files.append((os.path.relpath(path, source).replace(os.sep, "/"), data.read()))
    return files


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    dist_info = f"{_stem()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    for name, data in _dist_info_files():
        with open(os.path.join(metadata_directory, name), "wb") as target:
            target.write(data)
    return dist_info


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    files = _package_files() + _dist_info_files()
    record = f"{_stem()}.dist-info/RECORD"
    lines = [_record_line(name, data) for name, data in files] + [f"{record},,"]
    files.append((record, ("\n".join(lines) + "\n").encode("utf-8")))
    wheel_name = f"{_stem()}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files:
            entry = zipfile.ZipInfo(name, _ZIP_TIME)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return wheel_name


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    sdist_name = f"{_stem()}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, sdist_name), "w:gz") as sdist:
        for name in sorted(os.listdir(_ROOT)):
            if name != "__pycache__":
                sdist.add(os.path.join(_ROOT, name), arcname=f"{_stem()}/{name}", filter=lambda member: None if "__pycache__" in member.name else member)
    return sdist_name
