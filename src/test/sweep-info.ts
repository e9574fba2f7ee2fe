// A stored sweep as sweeps.list answers it, for tests: what a test leaves out is a sweep of this
// login's, ended done.
import type { SweepInfo } from '../api';

export function sweepInfo(fields: Partial<SweepInfo> & Pick<SweepInfo, 'id' | 'name' | 'status' | 'runs'>): SweepInfo {
  return {
    created_at: '', kind: 'sweep', standing: fields.status === 'running' ? 'interrupted' : 'done',
    owner: '', owner_host: '', owner_pid: 0, since: '', renewed_at: '', ...fields,
  };
}
