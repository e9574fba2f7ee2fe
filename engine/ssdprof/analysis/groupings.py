"""Runs split by a tag or by a fact every run records, and the two questions a study's split raises.

- Which split puts runs of the same settings side by side? The Groups panel opens with it (SATA
  beside PCIe at each setting), not with a split whose groups measured different things (each
  chunk size its own access size), and with no split at all when none compares anything.
- Which split divides the runs of one setting into groups that differ (Welch's t-test)? A model
  fitted across such a split mixes two populations (SATA and PCIe in one series: R² near 0), so
  Predict and Scaling say so and offer to fit each group apart.

Groups are named by their values ('SATA', 'PCIe'; 'no interface tag' for runs without the tag),
the split by its key's name ('interface', 'recorded drive').
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import median

from ssdprof.analysis.metrics import SETTING_FIELDS, fields_of, metric_value
from ssdprof.analysis.welch import welch_t_test
from ssdprof.model.run_summary import AnyRun, R, node_count

__all__ = ["NO_SPLIT", "RECORDED", "SETTING_TAGS", "Split", "comparable_split", "compare_drop", "differing_splits",
           "group_label", "key_name", "keys_of", "shared_settings", "split", "split_key", "splits_besides", "telling_apart"]

NO_SPLIT = "none"
"""The key of no split: every run in one group."""

RECORDED: dict[str, Callable[[AnyRun], str]] = {
    "recorded interface": lambda r: r.environment.interface or "not recorded",
    "recorded drive": lambda r: r.environment.device_model or "not recorded",
}
"""Facts every run records that runs can be split by, beside their tags."""

_ALWAYS_DROPPED = frozenset({"hosts", "device", "target", "drive"})
"""What a comparison of groups leaves out of a setting: where (which hosts, device and target) and
the drive's state (a difference in state is said beside the verdict)."""


SETTING_TAGS = frozenset({"offered_iops", "curve_pct", "pts_round", "pts_bs", "pts_mix"})
"""Tags ssdprof writes on its own runs that restate a setting (a curve point's offered rate, a PTS
round, access size and mix): a split by one only puts different settings apart, so none is offered."""


def keys_of(runs: Iterable[AnyRun]) -> list[str]:
    """Every key ``runs`` can be split by: 'tag KEY' for each tag they carry (but :data:`SETTING_TAGS`),
    then the recorded facts."""
    return [*(f"tag {k}" for k in sorted({k for r in runs for k in r.tags} - SETTING_TAGS)), *RECORDED]


def key_name(key: str) -> str:
    """The key in words: 'interface', 'recorded drive', 'no split'."""
    return "no split" if key == NO_SPLIT else key.removeprefix("tag ")


def _value_of(key: str) -> Callable[[AnyRun], str]:
    if key in RECORDED:
        return RECORDED[key]
    if key == NO_SPLIT:
        return lambda _: "all runs"
    tag = key.removeprefix("tag ")
    return lambda r: r.tags.get(tag) or f"no {tag} tag"


def group_label(key: str) -> Callable[[AnyRun], str]:
    """A series' label's tail naming its group of ``key``: ' interface=SATA', ' (recorded drive: X)';
    '' for no split."""
    if key in ("", NO_SPLIT):
        return lambda _: ""
    value = _value_of(key)
    if key in RECORDED:
        return lambda r: f" ({key}: {value(r)})"
    tag = key.removeprefix("tag ")
    return lambda r: f" {tag}={r.tags[tag]}" if r.tags.get(tag) else f" ({value(r)})"


def _natural(label: str) -> tuple[object, ...]:
    """Numbers in order (nodes 2, 3, 10), then words."""
    try:
        return (0, float(label), "")
    except ValueError:
        return (1, 0.0, label)


def split(runs: Sequence[R], key: str) -> dict[str, list[R]]:
    """``runs`` by their value of ``key``, values in natural order."""
    value = _value_of(key)
    found: dict[str, list[R]] = {}
    for run in runs:
        found.setdefault(value(run), []).append(run)
    return {label: found[label] for label in sorted(found, key=_natural)}


def telling_apart(groups: Sequence[Sequence[AnyRun]], parts: Mapping[str, Callable[[AnyRun], object]]) -> frozenset[str]:
    """The ``parts`` of one value within each group and differing between groups: what the groups
    are, so a setting compared across them leaves them out (split by nodes, 'read 16KiB QD1' is
    compared across nodes=1 and nodes=2). A part that varies within a group is kept: like is compared
    with like (SATA at 3 nodes against PCIe at 3 nodes)."""
    each = [{name: {part(r) for r in g} for name, part in parts.items()} for g in groups if g]
    if len(each) < 2:
        return frozenset()
    return frozenset(name for name in parts if all(len(values[name]) == 1 for values in each)
                     and len({next(iter(values[name])) for values in each}) > 1)


def compare_drop(groups: Sequence[Sequence[AnyRun]]) -> frozenset[str]:
    """The settings a comparison of ``groups`` leaves out: where and the drive's state, and the node
    count when it tells the groups apart."""
    return _ALWAYS_DROPPED | telling_apart(groups, {"nodes": node_count})


_NODES = SETTING_FIELDS.index("nodes")
_COMPARED = tuple(i for i, name in enumerate(SETTING_FIELDS) if name not in _ALWAYS_DROPPED | {"nodes"})


def _compared(runs: Iterable[AnyRun]) -> dict[int, tuple[tuple[object, ...], object]]:
    """Each run's setting as groups are compared (:data:`_ALWAYS_DROPPED` left out) and its node count
    apart, by ``id(run)``: computed once for every split tried."""
    return {id(r): (tuple(f[i] for i in _COMPARED), f[_NODES]) for r in runs for f in (fields_of(r),)}


def _compare_keys(groups: Sequence[Sequence[AnyRun]],
                  compared: Mapping[int, tuple[tuple[object, ...], object]]) -> list[set[object]]:
    nodes_apart = telling_apart(groups, {"nodes": lambda r: compared[id(r)][1]})
    if nodes_apart:
        return [{compared[id(r)][0] for r in g} for g in groups]
    return [{compared[id(r)] for r in g} for g in groups]


def shared_settings(groups: Sequence[Sequence[AnyRun]]) -> list[int]:
    """How many settings each group measured that the first group measured too (the first: its own)."""
    if not groups:
        return []
    keys = _compare_keys(groups, _compared(r for g in groups for r in g))
    return [len(keys[0] & mine) for mine in keys]


def comparable_split(runs: Sequence[AnyRun]) -> tuple[str, str]:
    """The split whose groups measured the most settings in common (fewer groups first, then tags
    before recorded facts), and why; :data:`NO_SPLIT` when no split puts two groups side by side."""
    best: tuple[int, int, int, str] | None = None
    compared = _compared(runs)
    for order, key in enumerate(keys_of(runs)):
        groups = list(split(runs, key).values())
        if len(groups) < 2:
            continue
        keys = _compare_keys(groups, compared)
        common = sum(1 for k in set().union(*keys) if sum(k in mine for mine in keys) >= 2)
        if common and (best is None or (-common, len(groups), order) < (-best[0], best[1], best[2])):
            best = (common, len(groups), order, key)
    if best is None:
        return NO_SPLIT, "no tag splits these runs into groups that measured the same settings"
    common, count, _, key = best
    return key, f"{key_name(key)} splits these runs into {count} groups that measured {common} setting(s) in common"


@dataclass(frozen=True)
class Split:
    """A key that divides the runs of one setting into groups that differ (Welch's t-test)."""

    key: str
    name: str
    groups: tuple[str, ...]
    settings: int
    """Settings measured by at least two of the groups."""
    differing: int
    """Of those, where a group differs from the first significantly."""
    sentence: str
    """The verdict in words, naming the groups."""


def differing_splits(runs: Sequence[AnyRun], metric: str, confidence: float = 0.95) -> list[Split]:
    """Every key (tags, then recorded facts) that splits runs of one setting into groups whose
    ``metric`` differs significantly at most of the settings measured by several groups; a key that
    splits the runs exactly as an earlier one does is left out."""
    fields = {id(r): fields_of(r) for r in runs}
    values = {id(r): metric_value(r, metric) for r in runs}
    found: list[Split] = []
    seen: list[frozenset[frozenset[int]]] = []
    for key in keys_of(runs):
        parts = split(runs, key)
        partition = frozenset(frozenset(id(r) for r in g) for g in parts.values())
        if len(parts) < 2 or partition in seen:
            continue
        seen.append(partition)
        by_setting: dict[tuple[object, ...], dict[str, list[float]]] = {}
        for label, members in parts.items():
            for run in members:
                if (value := values[id(run)]) is not None:
                    by_setting.setdefault(fields[id(run)], {}).setdefault(label, []).append(value)
        shared = [v for v in by_setting.values() if len(v) >= 2]
        verdict = _split_verdict(key, tuple(parts), shared, confidence) if shared else None
        if verdict is not None and verdict.differing * 2 > verdict.settings:
            found.append(verdict)
    return found


def splits_besides(runs: Sequence[AnyRun], metric: str, split_by: str, confidence: float = 0.95) -> list[Split]:
    """The splits whose groups differ, but ``split_by``, already fitted apart, and any that splits as it does."""
    found = differing_splits(runs, metric, confidence)
    if not split_by:
        return found
    done = {frozenset(id(r) for r in g) for g in split(runs, split_by).values()}
    return [s for s in found if s.key != split_by
            and {frozenset(id(r) for r in g) for g in split(runs, s.key).values()} != done]


def split_key(runs: Iterable[AnyRun], split_by: str) -> str:
    """The key ``split_by`` names among those these runs offer: as offered ('tag load', 'recorded drive')
    or by its name alone ('load', 'drive'); '' stays no split. Anything else is refused, naming them."""
    offered = keys_of(runs)
    if not split_by or split_by in offered:
        return split_by
    named = [key for key in offered if key_name(key) == split_by or key.removeprefix("recorded ") == split_by]
    if len(named) == 1:
        return named[0]
    from ssdprof.model.problems import WorkloadError  # pydantic loads for a refusal only

    said = (f"{split_by!r} names more than one split of these runs: {' or '.join(repr(k) for k in named)}" if named
            else f"these runs cannot be split by {split_by!r}; they offer {', '.join(repr(k) for k in offered)}")
    raise WorkloadError.single("split_by", "--split-by", said)


def _split_verdict(key: str, labels: tuple[str, ...], settings: list[dict[str, list[float]]], confidence: float) -> Split:

    differing = 0
    changes: list[float] = []
    for values in settings:
        first, *others = values
        results = [welch_t_test(values[first], values[other], 1 - confidence) for other in others]
        differing += any(r.significant for r in results)
        changes += [r.diff_pct for r in results if r.diff_pct is not None]
    return Split(key, key_name(key), labels, len(settings), differing,
                 _sentence(key_name(key), labels, settings=len(settings), differing=differing, changes=changes,
                           confidence=confidence))


def _sentence(name: str, labels: tuple[str, ...], *, settings: int, differing: int, changes: list[float],
              confidence: float) -> str:
    test = f"Welch's t-test at {confidence * 100:.0f} %"
    if len(labels) == 2:
        a, b = labels
        typical = f"; typically {b} is {abs(median(changes)):.0f} % {'higher' if median(changes) >= 0 else 'lower'} than {a}" \
            if changes else ""
        return (f"{name} splits these runs into groups that differ: {b} against {a} differs at {differing} of the "
                f"{settings} settings both measured ({test}){typical}. Fitted together they mix two populations.")
    return (f"{name} splits these runs into {len(labels)} groups that differ ({', '.join(labels)}): against "
            f"{labels[0]}, a group differs at {differing} of the {settings} settings several measured ({test}). "
            "Fitted together they mix populations.")
