from pathlib import Path

import pytest

from ssdprof.target.environment import block_device_of, capture_environment, interface_limit_bytes_per_s


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
