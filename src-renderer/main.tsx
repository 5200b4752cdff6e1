import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

function App() {
  return (
    <main>
      <h1>Gatehouse</h1>
      <p>The console is being built. The management API and Swagger UI are available now.</p>
      <a href="/swagger/index.html">Swagger UI</a>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
