export default function Home() {
  return (
    <main className="landing">
      <h1>Consulta de contribuyentes</h1>
      <p>
        Pasarela de consultas para integradores: registro de personas por CUI, RTU por NIT y los catálogos de CUI/NIT,
        RTU completo y omisos. La API vive bajo <code>/api</code>.
      </p>
      <ul>
        <li>
          <a href="/docs">Documentación de la API</a> (<a href="/api/openapi.json">OpenAPI 3.1</a>)
        </li>
        <li>
          <a href="/admin">Consola de administración</a>
        </li>
        <li>
          <a href="/estado">Estado del servicio</a>
        </li>
      </ul>
    </main>
  );
}
