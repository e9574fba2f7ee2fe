import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { EngineContext, connect } from './api';
import './styles.css';

const root = createRoot(document.getElementById('root')!);
try {
  const engine = connect();
  root.render(
    <StrictMode>
      <EngineContext.Provider value={engine}>
        <App />
      </EngineContext.Provider>
    </StrictMode>,
  );
} catch (error) {
  root.render(<p role="alert" className="error">ssdprof cannot reach its engine: {error instanceof Error ? error.message : String(error)}</p>);
}
