// The PTS designer's form as typed, and the request the engine plans it from (`pts.estimate`,
// `pts.start`). Nothing is judged here: the engine's one planner checks every field and names it.
import type { PtsRequest, PtsTest } from '../api';

export interface PtsForm {
  test: PtsTest;
  profile: 'laptop' | 'pts';
  target: string;
  size: string;
  roundTime: string;
  maxRounds: string;
  engine: 'auto' | 'fio' | 'portable';
  precondition: 'auto' | 'none';
  purge: boolean;
  blockSizes: string;
  mixes: string;
}

/** A student's first PTS test: the laptop profile (short rounds, a small region), labelled not compliant. */
export const initialPtsForm: PtsForm = {
  test: 'iops', profile: 'laptop', target: '', size: '', roundTime: '', maxRounds: '', engine: 'auto',
  precondition: 'auto', purge: false, blockSizes: '', mixes: '',
};

const list = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);

/** Blank fields take the profile's defaults; lists are comma-separated as on the command line. */
export function ptsRequest(form: PtsForm, allowOverwrite = false): PtsRequest {
  const blank = (text: string) => (text.trim() === '' ? null : text.trim());
  const rounds = blank(form.maxRounds);
  return {
    test: form.test,
    profile: form.profile,
    target: blank(form.target),
    size_bytes: blank(form.size),
    round_time_s: blank(form.roundTime),
    max_rounds: rounds === null ? null : Number(rounds),
    engine: form.engine === 'auto' ? null : form.engine,
    precondition: form.precondition,
    purge: form.purge,
    allow_overwrite: allowOverwrite,
    block_sizes: form.blockSizes.trim() ? list(form.blockSizes) : null,
    mixes: form.mixes.trim() ? list(form.mixes) : null,
  };
}

/** The engine's field names, mapped onto the form's inputs, so a problem shows beside what the user typed;
 * the rest (a workload field the form does not show) are listed under the form by their names. */
export const FORM_FIELD: Record<string, keyof PtsForm> = {
  size_bytes: 'size', round_time_s: 'roundTime', max_rounds: 'maxRounds', min_rounds: 'maxRounds',
  block_sizes: 'blockSizes', allow_overwrite: 'purge',
};
