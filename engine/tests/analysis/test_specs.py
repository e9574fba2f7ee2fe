"""The spec library as shipped, and the matcher against model strings as operating systems report them."""

import json
from pathlib import Path

import pytest

from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.analysis.spec_library import SpecLibrary, capacity_from_model
from ssdprof.analysis.specs import (
    Access,
    Figure,
    Spec,
    SpecError,
    delete_spec,
    load_spec_file,
    write_spec,
)

BUNDLED = bundled_spec_dir()


@pytest.fixture(scope="module")
def library() -> SpecLibrary:
    return SpecLibrary.load([BUNDLED])


def test_every_bundled_spec_loads_and_every_figure_cites_a_source(library: SpecLibrary) -> None:
    assert BUNDLED is not None
    assert library.problems == []
    assert len(library.specs) == len(list(BUNDLED.glob("*.json")))
    for spec in library.specs.values():
        for figure in spec.figures:
            assert spec.sources[figure.source].title, spec.id
        assert all(s.url.startswith("http") for s in spec.sources if s.url), spec.id


def test_the_library_holds_at_least_20_drives_with_rated_figures(library: SpecLibrary) -> None:
    rated = [s for s in library.specs.values() if s.figures]
    assert len(rated) >= 20
    assert {"SATA", "NVMe", "PCIe"} <= {s.interface.value for s in rated}
    assert len({s.vendor for s in rated}) >= 6


@pytest.mark.parametrize("spec_id", ["intel-d7-p5600", "intel-ssd-e-5410s", "samsung-830-256gb", "shannon-direct-io-g3i",
                                     "samsung-870-evo-1tb", "crucial-mx500-1tb", "wd-black-sn770-1tb", "kingston-a400-240gb"])
def test_the_drives_named_in_the_brief_are_present(library: SpecLibrary, spec_id: str) -> None:
    assert spec_id in library.specs


def test_the_brief_s_130k_random_write_enterprise_drive_is_the_d7_p5500(library: SpecLibrary) -> None:
    (write,) = [f for f in library.get("intel-d7-p5500").figures if f.metric is Access.RAND_WRITE]
    assert (write.value, write.unit, write.block_size_bytes) == (130_000, "IOPS", 4096)


@pytest.mark.parametrize(("reported", "expected"), [
    ("Samsung SSD 870 EVO 1TB", "samsung-870-evo-1tb"),                    # Linux sysfs, macOS
    ("Samsung SSD 870 EVO 1TB ATA Device", "samsung-870-evo-1tb"),         # Windows device manager
    ("samsung ssd 870 evo 1tb", "samsung-870-evo-1tb"),                    # case
    ("ata-Samsung_SSD_870_EVO_1TB_S6PTNX0R123456A", "samsung-870-evo-1tb"),  # /dev/disk/by-id, serial appended
    ("SAMSUNG SSD 830 Series", "samsung-830-256gb"),                       # hdparm / smartctl, no capacity in the name
    ("Samsung SSD 850 EVO 500GB", None),                                   # real drive, not in the library
    ("INTEL SSDPF2KX038TZ", None),                                         # nvme list: a D7-P5510, no sourced sheet
    ("SSDPF2KE016T9L", "intel-d7-p5600"),                                  # an OEM variant of the part number
    ("WD_BLACK SN770 1TB", "wd-black-sn770-1tb"),
    ("WD_BLACK SN850X 2000GB", "wd-black-sn850x-2tb"),
    ("CT1000MX500SSD1", "crucial-mx500-1tb"),
    ("KINGSTON SNV2S1000G", "kingston-nv2-1tb"),
    ("KINGSTON SA400M8240G", "kingston-a400-240gb"),
    ("Samsung SSD 970 EVO Plus 500GB", "samsung-970-evo-plus-500gb"),
    ("nvme-Samsung_SSD_980_PRO_1TB_S5GXNX0R123456", "samsung-980-pro-1tb"),
    ("NVMe Samsung SSD 980 1TB", "samsung-980-1tb"),
    ("SHPP41-1000GM", "skhynix-platinum-p41-1tb"),
    ("QEMU HARDDISK", None),
    ("APPLE SSD AP0512Q", None),
])
def test_the_matcher_understands_model_strings_as_the_os_reports_them(library: SpecLibrary, reported: str,
                                                                       expected: str | None) -> None:
    found = library.match(reported)
    assert (found.id if found else None) == expected


def test_another_capacity_of_a_known_model_matches_its_family_with_a_warning(library: SpecLibrary) -> None:
    found = library.match_detail("Samsung SSD 870 EVO 2TB")
    assert found is not None and found.spec.id == "samsung-870-evo-1tb" and found.score == 1
    assert "capacity differs" in found.note


def test_a_model_string_without_capacity_is_told_which_capacity_the_ratings_are_for(library: SpecLibrary) -> None:
    found = library.match_detail("SAMSUNG SSD 830 Series", capacity_bytes=128 * 10**9)
    assert found is not None and "256 GB model" in found.note


@pytest.mark.parametrize(("model", "capacity"), [("Samsung SSD 870 EVO 1TB", 10**12), ("WD_BLACK SN850X 2000GB", 2 * 10**12),
                                                 ("SNV2S/1000G", 10**12), ("INTEL SSDPF2KX038TZ", None),
                                                 ("Micron 5300 3.84TB", 3_840_000_000_000)])
def test_capacity_is_read_from_model_strings_in_decimal_units(model: str, capacity: int | None) -> None:
    assert capacity_from_model(model) == capacity


def test_a_user_spec_overrides_the_bundled_one_and_a_broken_file_does_not_hide_the_rest(tmp_path: Path) -> None:
    assert BUNDLED is not None
    mine = json.loads((BUNDLED / "samsung-870-evo-1tb.json").read_text())
    mine["model"] = "870 EVO 1TB (my lab's re-measured sheet)"
    (tmp_path / "samsung-870-evo-1tb.json").write_text(json.dumps(mine))
    (tmp_path / "broken.json").write_text('{"id": "broken", "vendor": "X"}')
    library = SpecLibrary.load([BUNDLED, tmp_path])
    assert library.get("samsung-870-evo-1tb").model.endswith("re-measured sheet)")
    assert library.origins["samsung-870-evo-1tb"].parent == tmp_path
    assert len(library.problems) == 1 and library.problems[0].startswith("broken.json: ")
    assert "intel-d7-p5600" in library.specs


def test_a_written_user_spec_loads_back_identically_and_can_be_deleted(tmp_path: Path, library: SpecLibrary) -> None:
    spec = library.get("intel-dc-p4500-1tb")
    assert load_spec_file(write_spec(spec, tmp_path / "specs")) == spec
    assert delete_spec(spec.id, tmp_path / "specs") and not delete_spec(spec.id, tmp_path / "specs")


@pytest.mark.parametrize(("change", "message"), [
    ({"figures": [{"metric": "seq_read", "value": 500, "unit": "MB/sec"}]}, "unknown unit"),
    ({"figures": [{"metric": "seq_read", "value": 500, "unit": "MB/s", "source": 3}]}, "source = 3"),
    ({"figures": [{"metric": "rand_mixed", "value": 1, "unit": "IOPS"}]}, "read_pct is required"),
    ({"interface": "Thunderbolt"}, "interface"),
    ({"schema_version": 2}, "schema_version 2"),
])
def test_invalid_spec_files_are_rejected_naming_the_file_and_the_problem(tmp_path: Path, change: dict, message: str) -> None:
    data = {"id": "x", "vendor": "V", "model": "M", "interface": "SATA", "sources": [{"title": "t"}], **change}
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SpecError, match=message) as error:
        load_spec_file(path)
    assert str(error.value).startswith("x.json: ")


def test_rated_figures_are_normalised_once_to_bytes_per_second_iops_and_nanoseconds() -> None:
    assert Figure(metric=Access.SEQ_READ, value=560, unit="MB/s").canonical_value == 560e6
    assert Figure(metric=Access.SEQ_READ, value=2, unit="GiB/s").canonical_value == 2 * 1024**3
    assert Figure(metric=Access.RAND_READ, value=85, unit="us").canonical_value == 85_000
    assert Figure(metric=Access.RAND_READ, value=98_000, unit="IOPS").quantity == "iops"


def test_every_bundled_figure_names_a_public_source_url_and_its_conditions(library: SpecLibrary) -> None:
    assert BUNDLED is not None
    for path in sorted(BUNDLED.glob("*.json")):
        spec = library.get(path.stem)
        assert spec.sources and all(s.url.startswith(("https://", "http://")) for s in spec.sources), path.name
        assert not spec.unsourced, path.name
        for figure in spec.figures:  # a condition the source leaves out is null, and said "not stated"
            assert figure.statistic in ("up_to", "typical", "mean") or figure.statistic.startswith("p"), (path.name, figure)
            assert ("not stated" in figure.conditions()) == (figure.block_size_bytes is None or figure.queue_depth is None)


def test_a_sheet_without_a_source_url_is_marked_unsourced_and_its_percentages_indicative(tmp_path: Path) -> None:
    from ssdprof.analysis.spec_comparison import Status, compare_run
    from ssdprof.store.interchange import import_fio_output

    assert BUNDLED is not None
    mine = json.loads((BUNDLED / "samsung-870-evo-1tb.json").read_text())
    mine["id"], mine["sources"] = "my-870", [{"title": "a colleague's notes", "url": ""}]
    spec = Spec.model_validate(mine)
    assert spec.unsourced and spec.model_dump()["unsourced"]
    from conftest import FIO_DATA

    run = import_fio_output(FIO_DATA / "fio-3.33_randread_qd1_io_uring_lat.jsonplus.json")[0]
    compared = [c for c in compare_run(spec, run) if c.pct_of_spec is not None]
    assert compared and all(c.status is Status.UNSTATED and any("unsourced" in n for n in c.notes) for c in compared)
