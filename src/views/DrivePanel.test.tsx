import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HealthRecord } from '../api';
import recorded from '../test/drive-health.json';
import { DrivePanel } from './DrivePanel';

// The engine's own HealthRecords from the lab node's real nvme-cli output
// (scripts/gen_drive_health_fixture.py).
const written = recorded.written as HealthRecord;
const hot = recorded.hot as HealthRecord;

describe('DrivePanel', () => {
  it('names the drive and shows its count of the bytes written beside the run’s, as the engine wrote them', () => {
    render(<DrivePanel record={written} />);
    const table = screen.getByTestId('drive-health-table');
    expect(within(table).getByText(/QEMU NVMe Ctrl, firmware 7\.2\.22/)).toBeTruthy();
    const row = within(table).getByText('written, by the drive').closest('tr');
    expect(row?.textContent).toContain('67.6 MB (the run: 67.1 MB');
  });

  it('draws the drive temperature each second when hwmon gave it, and no chart when it did not', () => {
    const { container, unmount } = render(<DrivePanel record={written} />);
    expect(container.querySelector('figure[data-chart="drive-temperature"]')).not.toBeNull();
    unmount();
    const again = render(<DrivePanel record={hot} />);
    expect(again.container.querySelector('figure[data-chart="drive-temperature"]')).toBeNull();
  });

  it('shows a critical warning that appeared during the run', () => {
    render(<DrivePanel record={hot} />);
    const row = screen.getByText('critical warnings').closest('tr');
    expect(row?.textContent).toContain('none → a temperature at or over its threshold');
  });

  it('names the host whose drive it is on a run over SSH', () => {
    render(<DrivePanel record={hot} host="lab1" />);
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe("The drive's own word on lab1");
  });
});
