"""Import tabular results — a datasheet's table, another tool's CSV, or ssdprof's own CSV export — as
earlier runs (source ``imported:<file>``) that overlay and compare like measured ones.

Columns are recognised by common spellings, with the unit in the header (``latency (ms)``,
``bw_MiB_per_s``) or in the cells (``85 µs``, ``550 MB/s``). Whatever had to be assumed (a unit
nobody stated, sequential vs random, a missing runtime) is said in the import's ``assumptions`` and
in an info warning on every imported run. Bandwidth is cross-checked against IOPS x access size
(``crosscheck``): a mislabelled unit is read as the unit it matches, a contradiction is kept and
flagged, each with a warning on that run. A ``clat`` column is completion latency; any other
latency column is taken as total latency (what datasheets and other tools report). A malformed
file is refused as a whole, the message naming the row and the column.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from ssdprof.model.results import DirectionStats, EngineInfo, Environment, LatencyStats, RunResult, Severity, ValidityWarning
from ssdprof.model.workload import Pattern, Workload
from ssdprof.store.crosscheck import check_bandwidth
from ssdprof.store.table_columns import (
    BW_UNITS,
    CHECK_UNITS,
    LAT_UNITS,
    SIZE_UNITS,
    Column,
    TableImportError,
    normal_header,
    number,
    recognise,
)

__all__ = ["MAX_TABLE_BYTES", "TableImport", "TableImportError", "import_table", "parse_table"]

MAX_TABLE_BYTES = 16 << 20
MAX_ROWS = 10_000


@dataclass(frozen=True)
class TableImport:
    runs: list[RunResult]
    assumptions: list[str]
    unit_warnings: list[str]
    """Bandwidths read in another unit than labelled, or contradicting IOPS x access size (also on the runs)."""


def import_table(path: Path, tags: dict[str, str] | None = None) -> TableImport:
    if path.stat().st_size > MAX_TABLE_BYTES:
        raise TableImportError(f"{path.name}: larger than {MAX_TABLE_BYTES >> 20} MiB; not a results table")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TableImportError(f"{path.name}: not UTF-8 text (byte {exc.start}); save the table as UTF-8 CSV") from None
    return parse_table(text, path.name, tags)


def parse_table(text: str, name: str = "table", tags: dict[str, str] | None = None) -> TableImport:
    """Every row (or every run id, when the table has one) as a run; raises TableImportError naming row and column."""
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    header = next(reader, None)
    if not header:
        raise TableImportError(f"{name}: empty file; expected a header row such as: block size,queue depth,direction,IOPS")
    rows = _Rows(name, recognise(header, name), ",".join(header))
    for row in reader:
        if reader.line_num > MAX_ROWS + 1:
            raise TableImportError(f"{name}: more than {MAX_ROWS} rows")
        if any(cell.strip() for cell in row):
            rows.add(reader.line_num, row)
    runs = rows.runs(dict(tags or {}))
    if not runs:
        raise TableImportError(f"{name}: no data rows below the header")
    return TableImport(runs, list(rows.assumed), [w.message for r in runs for w in r.warnings if w.code in _UNIT_CODES.values()])


@dataclass
class _Entry:
    line: int
    workload: Workload
    device: str
    metrics: dict[str, dict[str, float]]
    raw: list[str]
    bw_given: dict[str, tuple[float, str]]
    """Per direction: the bandwidth as written and its unit, for the cross-check."""


class _Rows:
    def __init__(self, name: str, columns: list[Column], header: str):
        self.name, self.columns, self.header = name, columns, header
        self.assumed: dict[str, None] = {}
        self.entries: dict[str, _Entry] = {}

    def _fail(self, line: int, column: Column, message: str) -> TableImportError:
        return TableImportError(f"{self.name} row {line}, column '{column.header}': {message}")

    def _cell(self, row: list[str], role: str) -> tuple[Column, str] | None:
        column = next((c for c in self.columns if c.role == role), None)
        if column is None or column.index >= len(row) or not row[column.index].strip():
            return None
        return column, row[column.index].strip()

    def _value(self, line: int, column: Column, cell: str) -> tuple[float, str]:
        found = number(cell)
        if found is None or found[0] < 0:
            raise self._fail(line, column, f"{cell!r} is not a non-negative number (with an optional unit)")
        return found[0], found[1] or column.unit.lower()

    def _int(self, line: int, row: list[str], role: str, default: int, what: str) -> int:
        found = self._cell(row, role)
        if found is None:
            self.assumed[f"{what} not given: {default} assumed"] = None
            return default
        column, cell = found
        digits = re.sub(r"^(qd|q|t)", "", cell.lower())
        if not digits.isdigit() or int(digits) < 1:
            raise self._fail(line, column, f"{cell!r} is not a whole number of at least 1")
        return int(digits)

    def _size(self, line: int, row: list[str]) -> int:
        column, cell = self._cell(row, "bs") or (next(c for c in self.columns if c.role == "bs"), "")
        if not cell:
            raise self._fail(line, column, "empty; every row needs its access size, e.g. 4K or 4096")
        value, unit = self._value(line, column, cell)
        if unit == "" and value < 512:
            self.assumed["access sizes without a unit below 512 read as KiB"] = None
            unit = "k"
        elif unit in ("kb", "mb"):
            self.assumed["access sizes in KB/MB read as KiB/MiB (1024-based), the storage convention"] = None
        factor = SIZE_UNITS.get(unit or "b")
        size = None if factor is None else value * factor
        if size is None or size % 512 or not 512 <= size <= 64 << 20:
            raise self._fail(line, column, f"{cell!r} is not an access size from 512 B to 64 MiB in whole sectors, e.g. 4K")
        return int(size)

    def _pattern(self, line: int, row: list[str], block: int) -> tuple[Pattern, str | None]:
        """The run's pattern and the direction the row's unprefixed metrics belong to."""
        given = self._cell(row, "pattern") or self._cell(row, "direction")
        if given is None:
            raise self._fail(line, next(c for c in self.columns if c.role in ("pattern", "direction")), "empty")
        column, cell = given
        text = cell.lower().replace("sequential", "seq").replace("random", "rand")
        reads, writes = bool(re.search(r"read|\brd\b|^r$", text)), bool(re.search(r"write|\bwr\b|^w$", text))
        mixed = (reads and writes) or text in ("rw", "randrw", "mixed", "mix") or "mix" in text
        if not (reads or writes or mixed):
            raise self._fail(line, column, f"{cell!r} names no direction; use read, write, random read, randrw, ...")
        random = "rand" in text or "rnd" in text
        if not random and "seq" not in text and text not in ("rw", "read", "write"):
            random = block < 64 << 10
            self.assumed["rows not saying random or sequential: random below 64 KiB, sequential from 64 KiB"] = None
        direction_cell = self._cell(row, "direction")
        own = None if mixed else "read" if reads else "write"
        if direction_cell and self._cell(row, "pattern"):
            own = "read" if "r" in direction_cell[1].lower()[:1] else "write"
        name = ("rand" if random else "") + ("rw" if mixed else "read" if reads else "write")
        return Pattern(name), own

    def add(self, line: int, row: list[str]) -> None:
        direction_cell = self._cell(row, "direction")
        if direction_cell and direction_cell[1].lower() == "all" and self._cell(row, "pattern"):
            return  # ssdprof's own export: a run's reads and writes together, made from its read and write rows
        block = self._size(line, row)
        pattern, own = self._pattern(line, row, block)
        read_pct = pattern.fixed_read_pct
        if read_pct is None:
            read_pct = self._int(line, row, "read_pct", 50, "read % of mixed rows")
        runtime = self._cell(row, "runtime")
        runtime_s = self._value(line, *runtime)[0] if runtime else 1.0
        if runtime is None:
            self.assumed["runtime not given: recorded as 1 s (I/O counts are IOPS x runtime)"] = None
        jobs = self._int(line, row, "jobs", 1, "jobs (threads)")
        direct = self._cell(row, "direct")
        workload = Workload(pattern=pattern, read_pct=min(read_pct, 100), block_size_bytes=block,
                            queue_depth=min(self._int(line, row, "qd", 1, "queue depth"), 4096), numjobs=min(jobs, 256),
                            runtime_s=max(runtime_s, 0.001), ramp_s=0, size_bytes=max(256 << 20, block * jobs),
                            direct=direct is None or direct[1] not in ("0", "false"))
        key = (self._cell(row, "run") or (None, str(line)))[1]
        device = self._cell(row, "device")
        entry = self.entries.setdefault(key, _Entry(line, workload, device[1] if device else "", {}, [], {}))
        if entry.workload != workload:
            raise TableImportError(f"{self.name} row {line}: run {key} has another workload than on row {entry.line}")
        entry.raw.append(",".join(row))
        for column in (c for c in self.columns if c.role in ("iops", "bw", "lat") and c.index < len(row) and row[c.index].strip()):
            direction = column.direction or own
            if direction is None:
                raise self._fail(line, column, "a mixed row needs read and write columns (e.g. 'read IOPS', 'write IOPS')")
            key_name = (("clat_" if "clat" in normal_header(column.header) else "") + column.stat) if column.role == "lat" else column.role
            entry.metrics.setdefault(direction, {}).setdefault(key_name, self._metric(line, column, row[column.index]))
            if column.role == "bw":
                value, unit = self._value(line, column, row[column.index])
                entry.bw_given.setdefault(direction, (value, CHECK_UNITS.get(unit or "mb/s", unit or "mb/s")))

    def _metric(self, line: int, column: Column, cell: str) -> float:
        value, unit = self._value(line, column, cell)
        if column.role == "iops":
            return value * (1000 if re.search(r"kiops|k ?iops|\(k\)", normal_header(column.header)) or unit == "k" else 1)
        table = BW_UNITS if column.role == "bw" else LAT_UNITS
        if not unit:
            unit, said = ("mb/s", "bandwidth without a unit read as MB/s (10^6 bytes/s)") if column.role == "bw" \
                else ("us", "latency without a unit read as µs")
            self.assumed[said] = None
        if unit not in table:
            raise self._fail(line, column, f"unknown unit {unit!r}; use one of {', '.join(table)}")
        return value * table[unit]

    def runs(self, tags: dict[str, str]) -> list[RunResult]:
        built = [(entry, *self._sides(entry)) for entry in self.entries.values()]  # notes first, so every run carries all
        return [_run(self.name, entry.workload, sides.get("read", DirectionStats()), sides.get("write", DirectionStats()),
                     device=entry.device, assumptions=list(self.assumed), checks=checks, tags=tags,
                     raw="\n".join([self.header, *entry.raw]))
                for entry, sides, checks in built]

    def _sides(self, entry: _Entry) -> tuple[dict[str, DirectionStats], list[ValidityWarning]]:
        sides: dict[str, DirectionStats] = {}
        checks: list[ValidityWarning] = []
        block = entry.workload.block_size_bytes
        for direction, metrics in entry.metrics.items():
            if direction in entry.bw_given and "iops" in metrics:
                value, unit = entry.bw_given[direction]
                check = check_bandwidth(value, unit, iops=metrics["iops"], block_size_bytes=block)
                metrics["bw"] = check.bw_bytes_per_s
                message = check.message(f"{self.name} row {entry.line}, {direction}", unit)
                if message:
                    checks.append(ValidityWarning(code=_UNIT_CODES[check.verdict], message=message,
                                                  concerns=[f"{direction}.bw_bytes_per_s", f"{direction}.iops"]))
            iops = metrics.get("iops", metrics.get("bw", 0.0) / block)
            bw = metrics.get("bw", iops * block)
            if ("iops" in metrics) != ("bw" in metrics) and iops:
                self.assumed["IOPS and bandwidth derived from each other through the access size where one was missing"] = None
            sides[direction] = _stats(iops, bw, entry.workload.runtime_s, metrics)
        if not sides:
            raise TableImportError(f"{self.name} row {entry.line}: no IOPS, bandwidth or latency value")
        return sides, checks


_UNIT_CODES = {"reinterpreted": "bandwidth_unit_reinterpreted", "mismatch": "bandwidth_contradicts_iops"}

def _stats(iops: float, bw: float, runtime_s: float, metrics: dict[str, float]) -> DirectionStats:
    count = max(1, round(iops * runtime_s))
    lat = {k: v for k, v in metrics.items() if k not in ("iops", "bw") and not k.startswith("clat_")}
    clat = {k.removeprefix("clat_"): v for k, v in metrics.items() if k.startswith("clat_")}
    return DirectionStats(io_count=count, io_bytes=round(bw * runtime_s), runtime_ms=runtime_s * 1000, iops=iops, bw_bytes_per_s=bw,
                          lat_ns=LatencyStats.model_validate({"samples": count, **lat}) if lat else LatencyStats(),
                          clat_ns=LatencyStats.model_validate({"samples": count, **clat}) if clat else LatencyStats())


def _run(name: str, workload: Workload, read: DirectionStats, write: DirectionStats, *, device: str, assumptions: list[str],
         checks: list[ValidityWarning], tags: dict[str, str], raw: str) -> RunResult:
    note = ValidityWarning(code="imported_table", severity=Severity.INFO,
                           message=f"imported from the table {name}" + (": " + "; ".join(assumptions) if assumptions else ""))
    return RunResult(engine=EngineInfo(name="imported", reason=f"tabular import from {name}",
                                       effective_queue_depth=workload.queue_depth, direct=workload.direct),
                     workload=workload, environment=Environment(device_model=device), warnings=[note, *checks], read=read, write=write,
                     tags=tags, source=f"imported:{name}", raw_output=raw)
