"""Checks the packed wheel and sdist as Python's own zipfile and tarfile read them.

Usage: python3 check_archives.py WHEEL SDIST VERSION. Every file the wheel's RECORD lists has the
sha256 and size written there, and every file in the wheel is listed; the sdist holds PKG-INFO,
pyproject.toml and LICENSE at its root folder, with the version given. Prints what is wrong and
exits 1, or exits 0.
"""

import base64
import csv
import hashlib
import io
import sys
import tarfile
import zipfile


def problems(wheel_path: str, sdist_path: str, version: str) -> "list[str]":
    found = []
    with zipfile.ZipFile(wheel_path) as wheel:
        names = wheel.namelist()
        records = [name for name in names if name.endswith(".dist-info/RECORD")]
        if len(records) != 1:
            return [f"the wheel has {len(records)} RECORD files"]
        listed = set()
        for row in csv.reader(io.StringIO(wheel.read(records[0]).decode("utf-8"))):
            name, digest, size = row
            listed.add(name)
            if name == records[0]:
                continue
            data = wheel.read(name)
            expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
            if digest != expected or int(size) != len(data):
                found.append(f"{name}: RECORD says {digest} {size}, the file is {expected} {len(data)}")
        found += [f"{name} is not in RECORD" for name in names if name not in listed]
        metadata = wheel.read(records[0].replace("RECORD", "METADATA")).decode("utf-8")
        if f"\nVersion: {version}\n" not in metadata:
            found.append("the wheel's METADATA does not carry the version")
        if not any(name.endswith(".dist-info/LICENSE") for name in names):
            found.append("the wheel has no LICENSE")
    with tarfile.open(sdist_path, "r:gz") as sdist:
        members = sdist.getnames()
        root = members[0].split("/")[0]
        for required in ("PKG-INFO", "pyproject.toml", "LICENSE"):
            if f"{root}/{required}" not in members:
                found.append(f"the sdist has no {required}")
        info = sdist.extractfile(f"{root}/PKG-INFO")
        if info is None or f"\nVersion: {version}\n" not in info.read().decode("utf-8"):
            found.append("the sdist's PKG-INFO does not carry the version")
    return found


if __name__ == "__main__":
    wrong = problems(sys.argv[1], sys.argv[2], sys.argv[3])
    for line in wrong:
        print(line)
    sys.exit(1 if wrong else 0)
