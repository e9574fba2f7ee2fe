"""The spec-sheet library: the bundled sheets and the user's, by id, and the sheet for a drive as its OS
reports the model (decorations, vendor words and capacity understood)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ssdprof.analysis.specs import Spec, SpecError, load_spec_file

__all__ = ["SpecLibrary", "SpecMatch", "capacity_from_model"]

# Words operating systems put around the model: Windows adds bus and device-class words, by-id
# links prefix the bus, some tools prefix the vendor. Stripped from both device and pattern.
_DECORATIONS = re.compile(r"^(ATA|NVME|SCSI|USB)\s+|\s+(SCSI DISK DEVICE|ATA DEVICE|USB DEVICE|DISK DEVICE|MEDIA)$")


_VENDOR_WORDS = ("WESTERN DIGITAL", "SK HYNIX", "SAMSUNG", "INTEL", "KINGSTON", "CRUCIAL", "MICRON", "WDC", "WD",
                 "HYNIX", "SHANNON", "SOLIDIGM", "APPLE")


_CAPACITY = re.compile(r"(?<![A-Z0-9])(\d+(?:\.\d+)?)\s*(GB|TB|G|T)(?![A-Z0-9])")


def _spaced(text: str) -> str:
    text = re.sub(r"[_/\-,()]+", " ", text.upper())
    text = re.sub(r"\s+", " ", text).strip()
    while True:
        stripped = _DECORATIONS.sub("", text).strip()
        if stripped == text:
            break
        text = stripped
    for vendor in _VENDOR_WORDS:
        if text.startswith(vendor + " "):
            return text[len(vendor) + 1:]
    return text


def _device_text(device_model: str) -> str:
    """A /dev/disk/by-id name ('ata-<model>_<serial>') without its bus prefix and serial."""
    match = re.match(r"^(ata|nvme|scsi|usb)-(.+)_[^_]+$", device_model.strip())
    return match.group(2) if match else device_model


def _compact(text: str) -> str:
    return re.sub(r"[^A-Z0-9*]", "", text)


def capacity_from_model(device_model: str) -> int | None:
    """Bytes from a capacity word in a model string ('1TB', '500GB', '2000G'), decimal as marketed."""
    found = _CAPACITY.findall(_spaced(_device_text(device_model)))
    if not found:
        return None
    number, unit = found[-1]
    return int(float(number) * (10**12 if unit.startswith("T") else 10**9))


@dataclass(frozen=True)
class SpecMatch:
    spec: Spec
    score: int
    """3 exact, 2 the pattern appears inside the reported model, 1 same family with another or no capacity."""
    pattern: str
    note: str = ""


@dataclass
class SpecLibrary:
    """Specs by id; later folders override earlier ones, so pass (bundled, user)."""

    specs: dict[str, Spec] = field(default_factory=dict)
    origins: dict[str, Path] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, folders: Iterable[Path | None]) -> SpecLibrary:
        library = cls()
        for folder in folders:
            if folder is None or not folder.is_dir():
                continue
            for path in sorted(folder.glob("*.json")):
                try:
                    spec = load_spec_file(path)
                except SpecError as exc:
                    library.problems.append(str(exc))  # one bad user file must not hide the rest
                    continue
                library.specs[spec.id] = spec
                library.origins[spec.id] = path
        return library

    def get(self, spec_id: str) -> Spec:
        if spec_id not in self.specs:
            raise KeyError(f"no spec with id {spec_id!r}; see: ssdprof specs list")
        return self.specs[spec_id]

    def match(self, device_model: str, capacity_bytes: int | None = None) -> Spec | None:
        found = self.match_detail(device_model, capacity_bytes)
        return found.spec if found else None

    def match_detail(self, device_model: str, capacity_bytes: int | None = None) -> SpecMatch | None:
        """The best spec for a model string as Linux, macOS or Windows reports it, or None."""
        device_model = _device_text(device_model)
        device = _compact(_spaced(device_model))
        if len(device) < 3:
            return None
        capacity = capacity_bytes or capacity_from_model(device_model)
        candidates = [m for spec in self.specs.values() if (m := _match_spec(spec, device_model, device))]
        if not candidates:
            return None

        def rank(m: SpecMatch) -> tuple[int, float, int]:
            closeness = 0.0
            if capacity and m.spec.capacity_bytes:
                closeness = -abs(m.spec.capacity_bytes - capacity) / capacity
            return m.score, closeness, len(_compact(m.pattern))

        best = max(candidates, key=rank)
        if capacity and best.spec.capacity_bytes and best.spec.capacity_bytes != capacity and not best.note:
            best = SpecMatch(best.spec, best.score, best.pattern,
                             f"rated figures are for the {best.spec.capacity_bytes / 1e9:g} GB model; this drive is "
                             f"{capacity / 1e9:g} GB, and ratings often differ by capacity")
        return best


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in _compact(_spaced(pattern)).split("*")))


def _match_spec(spec: Spec, device_model: str, device: str) -> SpecMatch | None:
    best: SpecMatch | None = None
    for pattern in spec.match_patterns:
        regex = _pattern_regex(pattern)
        literal = _compact(_spaced(pattern)).replace("*", "")
        if regex.fullmatch(device):
            found = SpecMatch(spec, 3, pattern)
        elif len(literal) >= 6 and regex.search(device):
            found = SpecMatch(spec, 2, pattern)
        else:
            family = _compact(_CAPACITY.sub("", _spaced(pattern)))
            device_family = _compact(_CAPACITY.sub("", _spaced(device_model)))
            if family == device_family and len(family.replace("*", "")) >= 6 and family != _compact(_spaced(pattern)):
                found = SpecMatch(spec, 1, pattern, "same model family, but the capacity differs or is not in the model "
                                  "string: rated figures may differ")
            else:
                continue
        if best is None or found.score > best.score:
            best = found
    return best
