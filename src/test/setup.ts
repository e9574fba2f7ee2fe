import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { forgetKeptQueries } from '../api';
import { forgetKeptAnswers } from '../state/kept-answer';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);
// Forms keep what was typed for the page's session (state/kept.ts): each test starts a new page.
// (electron/'s tests run in node, with no window.)
afterEach(() => {
  if (typeof window !== 'undefined') window.sessionStorage.clear();
  forgetKeptAnswers();
  forgetKeptQueries();
});

// happy-dom lays nothing out and its IntersectionObserver never reports: here every element is on
// screen (views that ask for a panel once it comes onto the screen ask at once, src/lib/use-on-screen.ts).
if (typeof window !== 'undefined') {
  window.IntersectionObserver = class {
    constructor(private readonly callback: IntersectionObserverCallback) {}
    observe(target: Element) {
      this.callback([{ isIntersecting: true, intersectionRatio: 1, intersectionRect: target.getBoundingClientRect(), target } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
    }
    unobserve() {}
    disconnect() {}
    takeRecords() { return []; }
  } as unknown as typeof IntersectionObserver;
}
