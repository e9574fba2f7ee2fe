"""elbencho's results CSV (``--csvfile``): a label row, then one row per phase, every elbencho run
appending its rows. Columns are found by their labels (their order and number changed between
versions): 'ISO date', the settings ('threads', 'block size', 'IO depth', 'direct IO', 'random',
'hosts', ...), 'operation', 'time ms [last]', 'IOPS [first]'/'[last]', 'MiB/s [first]'/'[last]',
'IO lat us [min]'/'[avg]'/'[max]', 'Ent lat us [...]' (per file or folder), the same prefixed
'rwmix read ' for RWMIX's reads, 'version' and 'command'. It has no latency percentiles."""

from __future__ import annotations

from ssdprof.model.results import RunResult
from ssdprof.store.imports.elbencho_phase import Phase, Side, command_settings, phases_runs
from ssdprof.store.imports.sources import ImportFailure, SourceFile

__all__ = ["import_elbencho_csv", "is_elbencho_csv"]

_REQUIRED = ("operation", "time ms [last]", "IOPS [last]", "MiB/s [last]")


def is_elbencho_csv(source: SourceFile) -> bool:
    first = source.data[:4096].split(b"\n", 1)[0]
    return all(label.encode() in first for label in _REQUIRED)


def import_elbencho_csv(source: SourceFile, tags: dict[str, str]) -> tuple[list[RunResult], list[str]]:
    # elbencho joins its cells with ',' and no quoting (it turns the commas of a label or the command line
    # into spaces, and quotes each argument of the command line with '"'): a CSV reader would take those quotes
    rows = [line.split(",") for line in source.text().splitlines()]
    if not source.data.endswith(b"\n"):
        raise ImportFailure(f"{source.path} row {len(rows)}: the file ends inside this row (elbencho ends every row "
                            "with a line end): it is cut short")
    labels = [label.strip() for label in rows[0]]
    missing = [label for label in _REQUIRED if label not in labels]
    if missing:
        raise ImportFailure(f"{source.path} row 1: no column {missing[0]!r}; not elbencho's results CSV")
    phases = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if [c.strip() for c in row] == labels:
            continue  # a second label row, from elbencho run with a fresh file appended
        if len(row) != len(labels):
            raise ImportFailure(f"{source.path} row {number}: {len(row)} cells where the label row has {len(labels)}; "
                                "the row is cut short or from another elbencho version")
        phases.append(_phase(source, number, dict(zip(labels, (c.strip() for c in row), strict=True))))
    return phases_runs(source, phases, tags)


def _number(source: SourceFile, number: int, cells: dict[str, str], label: str) -> float | None:
    text = cells.get(label, "")
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise ImportFailure(f"{source.path} row {number}, column {label!r}: {text!r} is not a number") from None


def _side(source: SourceFile, number: int, cells: dict[str, str], prefix: str) -> Side:
    def get(label: str) -> float | None:
        return _number(source, number, cells, prefix + label)

    side = Side(iops=get("IOPS [last]"), mib_s=get("MiB/s [last]"), first_iops=get("IOPS [first]"),
                first_mib_s=get("MiB/s [first]"))
    for key in ("min", "avg", "max"):
        io_value, file_value = get(f"IO lat us [{key}]"), get(f"Ent lat us [{key}]")
        if io_value is not None:
            side.io_lat_us[key] = io_value
        if file_value is not None:
            side.file_lat_us[key] = file_value
    return side


def _phase(source: SourceFile, number: int, cells: dict[str, str]) -> Phase:
    elapsed_ms = _number(source, number, cells, "time ms [last]")
    if not elapsed_ms:
        raise ImportFailure(f"{source.path} row {number}, column 'time ms [last]': empty or 0; the phase measured nothing")
    keys = ("threads", "hosts", "block size", "file size", "direct IO", "random", "IO depth", "path type", "paths", "label")
    settings: dict[str, str] = {key: cells[key] for key in keys if key in cells}
    if cells.get("command"):
        settings["path list"] = command_settings(cells["command"])["path list"]
    return Phase(where=f"row {number}", operation=cells["operation"], elapsed_s=elapsed_ms / 1000, settings=settings,
                 main=_side(source, number, cells, ""), mix_read=_side(source, number, cells, "rwmix read "),
                 version=cells.get("version", ""), started_at=cells.get("ISO date", ""), command=cells.get("command", ""))
