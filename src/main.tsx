import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { fetchRuntimeConfig } from './api/config';
import { createQueryClient } from './api/queryClient';
import { App } from './App';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

fetchRuntimeConfig()
  .then((config) => {
    root.render(
      <StrictMode>
        <App config={config} queryClient={createQueryClient()} />
      </StrictMode>,
    );
  })
  .catch(() => {
    container.textContent = 'Sage Dashboard could not reach its server. Please reload the page.';
  });
