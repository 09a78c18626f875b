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
  return operationSamples(url, { method: 'POST', body });
}

export interface SampleRequest {
  method: 'GET' | 'POST';
  /** Absent: a request without a body (a job's state, results, cancel, retry). */
  body?: unknown;
  /** Beside the credentials (a job's Idempotency-Key). */
  headers?: Record<string, string>;
}

/** One request in each language: the credentials, any other headers, and the JSON body when there is one. */
export function operationSamples(url: string, request: SampleRequest): Record<SampleLanguage, string> {
  const { method, body } = request;
  const hasBody = body !== undefined;
  const headers: Record<string, string> = {
    ...(hasBody ? { 'content-type': 'application/json' } : {}),
    'x-integracion-login': LOGIN,
    'x-integracion-token': TOKEN,
    ...request.headers,
  };
  const json = JSON.stringify(body);
  const pretty = JSON.stringify(body, null, 2);
  const extra = Object.entries(request.headers ?? {});
  return {
    curl: [
      `curl -X ${method} '${url}'${Object.keys(headers).length || hasBody ? ' \\' : ''}`,
      ...Object.entries(headers).map(([name, value], index, all) => `  -H '${name}: ${value}'${index < all.length - 1 || hasBody ? ' \\' : ''}`),
      ...(hasBody ? [`  -d '${json.replaceAll("'", "'\\''")}'`] : []),
    ].join('\n'),
    javascript: [
      `const respuesta = await fetch('${url}', {`,
      `  method: '${method}',`,
      `  headers: {`,
      ...Object.entries(headers).map(([name, value]) => `    '${name}': '${value}',`),
      `  },`,
      ...(hasBody ? [`  body: JSON.stringify(${pretty.replaceAll('\n', '\n  ')}),`] : []),
      `});`,
      `console.log(respuesta.status, await respuesta.${method === 'GET' && url.endsWith('/resultados') ? 'text' : 'json'}());`,
    ].join('\n'),
    python: [
      `import requests`,
      ``,
      `respuesta = requests.${method.toLowerCase()}(`,
      `    "${url}",`,
      `    headers={${[['x-integracion-login', LOGIN], ['x-integracion-token', TOKEN], ...extra].map(([name, value]) => `"${name}": "${value}"`).join(', ')}},`,
      ...(hasBody ? [`    json=${pythonLiteral(body)},`] : []),
      `    timeout=35,`,
      `)`,
      `print(respuesta.status_code, respuesta.${method === 'GET' && url.endsWith('/resultados') ? 'text' : 'json()'})`,
    ].join('\n'),
    csharp: [
      `using System.Net.Http;`,
      `using System.Text;`,
      ``,
      `using var cliente = new HttpClient { Timeout = TimeSpan.FromSeconds(35) };`,
      `using var solicitud = new HttpRequestMessage(HttpMethod.${method === 'GET' ? 'Get' : 'Post'}, "${url}");`,
      `solicitud.Headers.Add("x-integracion-login", "${LOGIN}");`,
      `solicitud.Headers.Add("x-integracion-token", "${TOKEN}");`,
      ...extra.map(([name, value]) => `solicitud.Headers.Add("${name}", "${value}");`),
      ...(hasBody ? [`solicitud.Content = new StringContent(${csharpString(json)}, Encoding.UTF8, "application/json");`] : []),
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
