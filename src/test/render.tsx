import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { EngineContext, type Engine } from '../api';

export function renderWith(engine: Engine, ui: ReactElement): RenderResult {
  return render(<EngineContext.Provider value={engine}>{ui}</EngineContext.Provider>);
}
