"""The lite site's extra wheels are pinned by version and SHA-256 and checked at build time
(no network here: pip is replaced by a fake that drops a wheel into the folder)."""
from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "site"))
import lite  # noqa: E402


def test_every_extra_wheel_is_pinned_by_version_and_sha256():
    assert set(lite.EXTRA_WHEELS) == {"seaborn", "ipywidgets", "comm", "jupyterlab_widgets",
                                   "anywidget", "psygnal"}     # anywidget draws the named sliders
    for version, sha in lite.EXTRA_WHEELS.values():
        assert re.fullmatch(r"\d+(\.\d+)+", version) and re.fullmatch(r"[0-9a-f]{64}", sha)


def test_a_wheel_with_another_digest_is_refused(tmp_path):
    fake = tmp_path / "seaborn-0.13.2-py3-none-any.whl"
    fake.write_bytes(b"PK\x03\x04 not the reviewed wheel")
    with pytest.raises(lite.WheelMismatch, match=r"seaborn-0\.13\.2-py3-none-any\.whl has SHA-256 [0-9a-f]{64}"):
        lite.check_wheel(fake, lite.EXTRA_WHEELS["seaborn"][1])
    lite.check_wheel(fake, hashlib.sha256(fake.read_bytes()).hexdigest())      # its own digest passes


def _fake_pip(tmp_path, monkeypatch, content):
    """pip download replaced: records its arguments and writes one (fake) wheel per pin."""
    seen = {}

    def run(cmd, check):
        req = Path(cmd[cmd.index("-r") + 1])
        seen["cmd"], seen["requirements"] = cmd, req.read_text()
        dest = Path(cmd[cmd.index("-d") + 1])
        for dist, (version, _) in lite.EXTRA_WHEELS.items():
            (dest / f"{dist}-{version}-py3-none-any.whl").write_bytes(content(dist))

    monkeypatch.setattr(lite.subprocess, "run", run)
    monkeypatch.setattr(lite, "_version", lambda dist: lite.EXTRA_WHEELS[dist][0])
    return seen


def test_the_build_asks_pip_for_hash_checking_and_checks_every_file_itself(tmp_path, monkeypatch):
    seen = _fake_pip(tmp_path, monkeypatch, lambda dist: b"tampered " + dist.encode())
    with pytest.raises(lite.WheelMismatch, match="not the wheel that was reviewed"):
        lite.download_pinned(tmp_path, ["pip"])
    assert "--require-hashes" in seen["cmd"]
    for dist, (version, sha) in lite.EXTRA_WHEELS.items():
        assert f"{dist}=={version} --hash=sha256:{sha}" in seen["requirements"]
    assert not list(tmp_path.glob("*.txt"))          # the requirements file is not served


def test_matching_wheels_pass(tmp_path, monkeypatch):
    pins = {dist: b"wheel of " + dist.encode() for dist in lite.EXTRA_WHEELS}
    monkeypatch.setattr(lite, "EXTRA_WHEELS", {d: (v, hashlib.sha256(pins[d]).hexdigest())
                                               for d, (v, _) in lite.EXTRA_WHEELS.items()})
    _fake_pip(tmp_path, monkeypatch, lambda dist: pins[dist])
    assert len(lite.download_pinned(tmp_path, ["pip"])) == len(lite.EXTRA_WHEELS) == 6


def test_an_installed_version_other_than_the_pin_stops_the_build(tmp_path, monkeypatch):
    monkeypatch.setattr(lite, "_version", lambda dist: "0.0.1")
    with pytest.raises(lite.WheelMismatch, match="is installed but site/lite.py pins"):
        lite.download_pinned(tmp_path, ["pip"])
