// History's Import: result files of other tools (or a cbt results folder) sent to the engine, which
// tells them apart by content, says what each was and stores its runs once. The bytes go in chunks
// the engine sizes (a request body is small in browser mode); the engine chooses a folder's files.
import { useRef, useState } from 'react';
import { EngineError, useEngine, type ImportOutcome } from '../api';

interface Props {
  onImported: (outcome: ImportOutcome) => void;
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function pathOf(file: File): string {
  return file.webkitRelativePath || file.name;
}

export function HistoryImport({ onImported }: Props) {
  const engine = useEngine();
  const [busy, setBusy] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  async function send(files: File[], folder: boolean) {
    if (!files.length) return;
    setError(null);
    setOutcome(null);
    try {
      const begun = await engine.call('imports.begin', {
        folder, tags: {}, files: files.map((f) => ({ path: pathOf(f), size_bytes: f.size })),
      });
      const byPath = new Map(files.map((f) => [pathOf(f), f]));
      for (const path of begun.wanted) {
        setBusy(`Sending ${path}…`);
        const bytes = new Uint8Array(await byPath.get(path)!.arrayBuffer());
        for (let offset = 0; offset < bytes.length || offset === 0; offset += begun.chunk_bytes) {
          await engine.call('imports.chunk', { upload_id: begun.upload_id, path, offset,
            data_base64: base64(bytes.subarray(offset, offset + begun.chunk_bytes)) });
          if (!bytes.length) break;
        }
      }
      setBusy('Reading…');
      const done = await engine.call('imports.finish', { upload_id: begun.upload_id });
      setOutcome(done);
      onImported(done);
    } catch (e) {
      setError(e instanceof EngineError ? e.problems.map((p) => p.message).join('; ') || e.message : String(e));
    } finally {
      setBusy('');
    }
  }

  return (
    <div className="history-import" data-testid="history-import">
      <div className="actions">
        <label className="button">Import result files…
          <input type="file" multiple hidden aria-label="Import result files" disabled={Boolean(busy)}
            onChange={(e) => { void send([...(e.target.files ?? [])], false); e.target.value = ''; }} />
        </label>
        <button type="button" disabled={Boolean(busy)} onClick={() => folderInput.current?.click()}>Import a cbt results folder…</button>
        <input ref={folderInput} type="file" hidden aria-label="Import a cbt results folder"
          {...{ webkitdirectory: '', directory: '' }}
          onChange={(e) => { void send([...(e.target.files ?? [])], true); e.target.value = ''; }} />
        <span className="hint">fio JSON, elbencho CSV or results file, diskspd XML, CrystalDiskMark or KDiskMark text: told apart by content.</span>
      </div>
      {busy && <p role="status" className="hint">{busy}</p>}
      {error && <p role="alert" className="error" data-testid="import-error">{error}</p>}
      {outcome && (
        <ul className="import-outcome" data-testid="import-outcome">
          {outcome.sources.map((s) => (
            <li key={s.source}>{s.summary}
              {s.notes.length > 0 && <ul>{s.notes.map((n) => <li key={n} className="hint">{n}</li>)}</ul>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
