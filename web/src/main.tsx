import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/data.css';
import './styles/overlays.css';
import './styles/guidance.css';
import './styles/phone.css';
import './styles/frame.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
