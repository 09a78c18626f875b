// Request samples for /docs, generated from the same OpenAPI example body as the page shows, in
// the languages Guatemalan integrators use most. The credentials are placeholders.

export const SAMPLE_LANGUAGES = [
  { key: 'curl', label: 'curl' },
  { key: 'javascript', label: 'JavaScript (fetch)' },
  { key: 'python', label: 'Python (requests)' },
  { key: 'csharp', label: 'C# (HttpClient)' },
] as const;

export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number]['key'];

const LOGIN = 'TU_LOGIN';
const TOKEN = 'TU_TOKEN';

export function requestSamples(url: string, body: unknown): Record<SampleLanguage, string> {
  const json = JSON.stringify(body);
  const pretty = JSON.stringify(body, null, 2);
  return {
    curl: [
      `curl -X POST '${url}' \\`,
      `  -H 'content-type: application/json' \\`,
      `  -H 'x-integracion-login: ${LOGIN}' \\`,
      `  -H 'x-integracion-token: ${TOKEN}' \\`,
      `  -d '${json.replaceAll("'", "'\\''")}'`,
    ].join('\n'),
    javascript: [
      `const respuesta = await fetch('${url}', {`,
      `  method: 'POST',`,
      `  headers: {`,
      `    'content-type': 'application/json',`,
      `    'x-integracion-login': '${LOGIN}',`,
      `    'x-integracion-token': '${TOKEN}',`,
      `  },`,
      `  body: JSON.stringify(${pretty.replaceAll('\n', '\n  ')}),`,
      `});`,
      `console.log(respuesta.status, await respuesta.json());`,
    ].join('\n'),
    python: [
      `import requests`,
      ``,
      `respuesta = requests.post(`,
      `    "${url}",`,
      `    headers={"x-integracion-login": "${LOGIN}", "x-integracion-token": "${TOKEN}"},`,
      `    json=${pythonLiteral(body)},`,
      `    timeout=35,`,
      `)`,
      `print(respuesta.status_code, respuesta.json())`,
    ].join('\n'),
    csharp: [
      `using System.Net.Http;`,
      `using System.Text;`,
      ``,
      `using var cliente = new HttpClient { Timeout = TimeSpan.FromSeconds(35) };`,
      `using var solicitud = new HttpRequestMessage(HttpMethod.Post, "${url}");`,
      `solicitud.Headers.Add("x-integracion-login", "${LOGIN}");`,
      `solicitud.Headers.Add("x-integracion-token", "${TOKEN}");`,
      `solicitud.Content = new StringContent(${csharpString(json)}, Encoding.UTF8, "application/json");`,
      `using var respuesta = await cliente.SendAsync(solicitud);`,
      `Console.WriteLine($"{(int)respuesta.StatusCode} {await respuesta.Content.ReadAsStringAsync()}");`,
    ].join('\n'),
  };
}

/** JSON as a Python literal (true/false/null become True/False/None). */
function pythonLiteral(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object') return `{${Object.entries(value as Record<string, unknown>).map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item)}`).join(', ')}}`;
  return JSON.stringify(value);
}

/** A C# verbatim string: quotes doubled. */
function csharpString(text: string): string {
  return `@"${text.replaceAll('"', '""')}"`;
}
