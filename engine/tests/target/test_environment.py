from pathlib import Path

import pytest

from ssdprof.target.devices import parse_probe
from ssdprof.target.environment import (
    block_device_of,
    capture_environment,
    device_environment,
    interface_limit_bytes_per_s,
)


@pytest.mark.parametrize(("interface", "link", "limit"), [
    ("NVMe", "8.0 GT/s PCIe x4", 4 * 984.6e6),
    ("NVMe", "16.0 GT/s PCIe x4", 4 * 1969e6),
    ("SATA", "6.0 Gbps", 600e6),
    ("SATA", "3.0 Gbps", 300e6),
    ("SATA", "", 600e6),
    ("virtio", "", None),
])
def test_interface_limits_follow_the_link(interface: str, link: str, limit: float | None) -> None:
    assert interface_limit_bytes_per_s(interface, link) == limit


def test_the_environment_names_os_kernel_cpu_filesystem_and_tools(disk_dir: Path) -> None:
    env = capture_environment(disk_dir, {"fio": "fio-3.33"})
    assert env.kernel and env.os and env.cpu_count > 0 and env.memory_bytes > 0
    assert env.filesystem and env.mount_point
    assert env.tool_versions == {"fio": "fio-3.33"}


def test_the_block_device_behind_a_folder_is_found_on_linux(disk_dir: Path) -> None:
    if not Path("/sys/dev/block").exists():
        pytest.skip("no sysfs")
    device = block_device_of(disk_dir)
    assert device is None or (Path("/sys/class/block") / device).exists()


DEVICES = Path(__file__).parents[1] / "data" / "devices"


@pytest.mark.parametrize(("name", "expected"), [
    ("nvme0n1", {"interface": "NVMe", "device_model": "QEMU NVMe Ctrl", "device_serial": "SSDPROF-NVME-1",
                 "device_firmware": "7.2.22", "pcie_link": "2.5 GT/s PCIe x1", "interface_limit_bytes_per_s": 250e6}),
    ("sda", {"interface": "SATA", "device_model": "SSDPROF LAB SATA", "device_serial": "SSDPROF-SATA-1",
             "device_firmware": "2.5+", "pcie_link": "1.5 Gbps", "interface_limit_bytes_per_s": 150e6}),
    ("vda", {"interface": "virtio", "device_serial": "SSDPROF-VD-1", "pcie_link": ""}),
])
def test_a_devices_environment_names_its_interface_model_serial_firmware_link_and_blocks(
        name: str, expected: dict[str, object]) -> None:
    # What device_probe.sh printed in the lab node (tests/data/devices/README.md): an ATA disk has no serial
    # file in sysfs, so its serial comes from VPD page 0x80 and its full model from its IDENTIFY data.
    device = parse_probe(f"/dev/{name}", (DEVICES / f"lab-{name}.probe.txt").read_text())
    facts = device_environment(device)
    assert {key: facts[key] for key in expected} == expected
    assert facts["logical_block_bytes"] == 512 and facts["physical_block_bytes"] == 512
