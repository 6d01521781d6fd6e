import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { askAppInfoEarly, markStartStep } from './api';
import './styles.css';

markStartStep('script');
askAppInfoEarly();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
