"""History's Import over the RPC: the files named, the bytes sent in chunks, the runs read by content
and stored once; a folder sent as a cbt tree only as far as its import needs."""

from __future__ import annotations

import base64
import sys
from pathlib import Path
from typing import Any

from rpc_client import Client

sys.path.insert(0, str(Path(__file__).parents[1] / "store" / "imports"))
from tool_outputs import crystaldiskmark8


def send(client: Client, files: dict[str, bytes], *, folder: bool = False, chunk: int | None = None) -> dict[str, Any]:
    begun = client.call("imports.begin", {"files": [{"path": p, "size_bytes": len(d)} for p, d in files.items()],
                                          "folder": folder, "tags": {"owner": "student"}})
    size = chunk or begun["chunk_bytes"]
    for path in begun["wanted"]:
        data = files[path]
        for offset in range(0, max(len(data), 1), size):
            client.call("imports.chunk", {"upload_id": begun["upload_id"], "path": path, "offset": offset,
                                          "data_base64": base64.b64encode(data[offset:offset + size]).decode()})
    return dict(client.call("imports.finish", {"upload_id": begun["upload_id"]}))


def test_a_crystaldiskmark_export_sent_in_chunks_is_stored_once(client: Client) -> None:
    outcome = send(client, {"friend's result.txt": crystaldiskmark8()}, chunk=500)
    (source,) = outcome["sources"]
    assert source["format"] == "CrystalDiskMark text export" and len(source["run_ids"]) == 8
    run = client.call("runs.get", {"run_id": source["run_ids"][2]})["run"]
    assert run["workload"]["label"] == "randread 4KiB QD32 T1" and run["tags"] == {"owner": "student"}
    assert run["imported"]["tool"] == "CrystalDiskMark" and run["imported"]["file"] == "friend's result.txt"
    again = send(client, {"copy.txt": crystaldiskmark8()})
    assert again["sources"][0]["run_ids"] == [] and again["sources"][0]["already_stored"] == source["run_ids"]
    assert again["run_ids"] == source["run_ids"]


def test_a_folder_sends_only_what_a_cbt_tree_import_reads(client: Client) -> None:
    begun = client.call("imports.begin", {"folder": True, "files": [
        {"path": "archive/results/cbt_config.yaml", "size_bytes": 10},
        {"path": "archive/results/00000000/id-1/benchmark_config.yaml", "size_bytes": 10},
        {"path": "archive/results/00000000/id-1/output.0.client-a", "size_bytes": 10},
        {"path": "archive/results/00000000/id-1/output.0_iops.1.log.client-a", "size_bytes": 10},
        {"path": "archive/results/00000000/id-1/collectl.client-a/cpu.gz", "size_bytes": 10}]})
    assert begun["wanted"] == ["archive/results/cbt_config.yaml", "archive/results/00000000/id-1/benchmark_config.yaml",
                               "archive/results/00000000/id-1/output.0.client-a"]


def test_a_file_that_is_no_result_is_refused_with_its_reason_and_nothing_stored(client: Client) -> None:
    begun = client.call("imports.begin", {"files": [{"path": "notes.txt", "size_bytes": 5}]})
    client.call("imports.chunk", {"upload_id": begun["upload_id"], "path": "notes.txt", "offset": 0,
                                  "data_base64": base64.b64encode(b"hello").decode()})
    response = client.request("imports.finish", {"upload_id": begun["upload_id"]})
    assert "notes.txt: not a result file ssdprof recognises by its content" in response["error"]["message"]
    assert client.call("runs.page", {"filter": {}, "offset": 0, "limit": 10})["total"] == 0
