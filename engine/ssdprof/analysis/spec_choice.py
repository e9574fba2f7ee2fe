"""Which spec sheet runs are compared with: the one asked for now, else the one the user chose for
this device before (the engine remembers it, so the CLI, the app and the PDF agree), else the one
matching the drive's model. A virtual disk reports no model: without a remembered choice it gets
none, and the answer says how to choose one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.specs import Spec
from ssdprof.model.health import DriveHealth
from ssdprof.model.results import Environment, RunResult
from ssdprof.model.run_summary import AnyRun
from ssdprof.model.value import Value

__all__ = ["DeviceIdentity", "SpecPick", "device_identity", "drive_environment", "no_spec",
           "pick_spec", "with_drive"]

HOW_TO_CHOOSE = ("choose a spec sheet in Results → Vendor spec sheet, or with --spec ID (see: "
                 "ssdprof specs list); the choice is remembered for this device")


@dataclass(frozen=True)
class DeviceIdentity:
    key: str
    """What a choice is remembered under: the drive's model and serial, or, for a drive the OS
    does not name (a virtual disk), the machine and the disk."""
    description: str
    """How the device is named to the user, e.g. 'disk vda on vm'."""


def with_drive(environment: Environment, drive: DriveHealth | None) -> Environment:
    """``environment`` with the drive's own identity (its SMART model, serial and firmware) where
    the OS told none: a disk behind a layer the probe does not see through still finds its sheet;
    and the disk the drive was asked as, where the run named none (a host's file target)."""
    if drive is None:
        return environment
    update: dict[str, str] = {}
    if not (environment.device or environment.target_device) and drive.device:
        update["device"] = drive.device.removeprefix("/dev/")
    if not environment.device_model and drive.model:
        update |= {"device_model": drive.model, "device_serial": drive.serial, "device_firmware": drive.firmware}
    return environment.model_copy(update=update) if update else environment


def drive_environment(run: AnyRun) -> Environment:
    """The run's environment for choosing its spec sheet: the drive's word fills a model the OS
    did not give (the local drive's, else a one-host run's host drive's; a summary has none)."""
    if not isinstance(run, RunResult):
        return run.environment
    record = run.drive_health
    if record is None and len(run.hosts) == 1:
        record = run.hosts[0].drive_health
    return with_drive(run.environment, record.before if record is not None else None)


def device_identity(environment: Environment) -> DeviceIdentity:
    env = environment
    if env.device_model or env.device_serial:
        serial = f" (serial {env.device_serial})" if env.device_serial else ""
        return DeviceIdentity(f"model={env.device_model}|serial={env.device_serial}",
                              f"{env.device_model or 'drive'}{serial}")
    disk = env.target_device or env.device or "unknown disk"
    return DeviceIdentity(f"host={env.hostname}|disk={disk}",
                          f"disk {disk} on {env.hostname or 'this machine'}")


Found = Literal["chosen", "remembered", "matched"]


class SpecPick(Value):
    """The spec sheet used, and why; or why none is, and how to choose one."""

    spec_id: str | None = Field(description="null: no spec sheet is compared")
    title: str = Field(description="vendor and model, '' without a spec")
    how: Literal["chosen", "remembered", "matched", "none"]
    note: str = Field(description="why this sheet ('matched to the drive model …'), or why "
                                  "none and how to choose one")
    device: str = Field(description="the device the runs measured, as named to the user")


def pick_spec(library: SpecLibrary, environment: Environment, chosen_id: str | None,
              remembered_id: str | None) -> tuple[Spec | None, SpecPick]:
    """The sheet for runs on ``environment``'s device; ``chosen_id`` must exist (KeyError
    otherwise), a remembered sheet deleted since is passed over."""
    device = device_identity(environment).description

    def picked(spec: Spec, how: Found, note: str) -> tuple[Spec, SpecPick]:
        return spec, SpecPick(spec_id=spec.id, title=spec.title, how=how, note=note, device=device)

    if chosen_id is not None:
        return picked(library.get(chosen_id), "chosen", "chosen")
    if remembered_id is not None and remembered_id in library.specs:
        return picked(library.specs[remembered_id], "remembered", f"chosen earlier for {device}")
    model = environment.device_model
    found = library.match_detail(model) if model else None
    if found is not None:
        extra = f"; {found.note}" if found.note else ""
        return picked(found.spec, "matched", f"matched to the drive model {model!r}{extra}")
    why = (f"no spec sheet matches the drive model {model!r}" if model else
           f"the drive model of {device} is not recorded (a virtual disk?), so no sheet matches it")
    return None, SpecPick(spec_id=None, title="", how="none", note=f"{why}: {HOW_TO_CHOOSE}",
                          device=device)


def no_spec(environment: Environment) -> SpecPick:
    """No sheet, because the user asked for none."""
    return SpecPick(spec_id=None, title="", how="none", note="no spec sheet compared, as chosen",
                    device=device_identity(environment).description)
