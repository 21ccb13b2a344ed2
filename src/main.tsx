import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureAnalytics } from './analytics';
import { fetchRuntimeConfig } from './api/config';
import { createQueryClient } from './api/queryClient';
import { App } from './App';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

fetchRuntimeConfig()
  .then((config) => {
    configureAnalytics(config.analytics);
    root.render(
      <StrictMode>
        <App config={config} queryClient={createQueryClient()} />
      </StrictMode>,
    );
  })
  .catch(() => {
    container.textContent = 'Sage Dashboard could not reach its server. Please reload the page.';
  });
