import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import { Heatmap } from '../views/Heatmap';

/** An observer the test moves: the page is laid out far below the screen until `scrollTo`. */
let observed: { callback: IntersectionObserverCallback; target: Element }[] = [];
const onScreen = window.IntersectionObserver;
class Scrolled {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) { observed.push({ callback: this.callback, target }); }
  unobserve() {}
  disconnect() { observed = observed.filter((o) => o.callback !== this.callback); }
  takeRecords() { return []; }
}
const scrollTo = () => act(() => observed.forEach(({ callback, target }) => callback(
  [{ isIntersecting: true, intersectionRatio: 1, intersectionRect: target.getBoundingClientRect(), target } as IntersectionObserverEntry], {} as IntersectionObserver)));

afterEach(() => {
  window.IntersectionObserver = onScreen;
  observed = [];
});

describe('useOnScreen', () => {
  it('asks for a panel below the screen only once the reader scrolls to it', async () => {
    window.IntersectionObserver = Scrolled as unknown as typeof IntersectionObserver;
    const fake = fakeEngine({
      'analysis.correlation': () => ({ method: 'spearman', groups: [{ nodes: 3, runs: 12, factors: ['numjobs'], metrics: ['iops'], values: [[0.5]] }] }),
    });
    renderWith(fake.engine, <Heatmap runIds={[1, 2, 3]} />);
    await new Promise((done) => setTimeout(done, 20));
    expect(fake.calls).toEqual([]);
    expect(screen.queryByTestId('heatmap')).toBeNull();
    scrollTo();
    await waitFor(() => expect(screen.getByTestId('heatmap').textContent).toContain('3 storage nodes (12 runs)'));
    expect(fake.calls.map((c) => c.method)).toEqual(['analysis.correlation']);
  });
});
