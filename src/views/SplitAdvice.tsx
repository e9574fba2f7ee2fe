// What the engine found about a fit's runs (analysis.predict, analysis.scaling): a tag that splits
// the runs of one setting into groups that differ (Welch's test), offered to fit each group apart;
// or, once fitted apart, which split and the way back.
import type { SplitInfo } from '../api';

interface Props {
  splits: SplitInfo[];
  /** The split each group of which was fitted apart ('' none), and its name. */
  splitBy: string;
  splitName: string;
  /** Fit again, each group of `key` apart ('' across every group). */
  onSplit: (key: string) => void;
  busy: boolean;
}

export function SplitAdvice({ splits, splitBy, splitName, onSplit, busy }: Props) {
  return (
    <>
      {splitBy && (
        <p className="hint" data-testid="split-by">
          Each {splitName} fitted apart.{' '}
          <button type="button" disabled={busy} onClick={() => onSplit('')}>Fit across every {splitName} again</button>
        </p>
      )}
      {splits.map((s) => (
        <div key={s.key} role="note" className="split-advice" data-testid="split-advice">
          <p>{s.sentence}</p>
          <button type="button" disabled={busy} onClick={() => onSplit(s.key)}>Fit each {s.name} apart ({s.groups.join(', ')})</button>
        </div>
      ))}
    </>
  );
}
