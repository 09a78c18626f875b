// Request samples for /docs, generated from the same OpenAPI example body as the page shows, in
// the languages Guatemalan integrators use most. The base URL and credentials are placeholders.

export const SAMPLE_LANGUAGES = [
  { key: 'curl', label: 'curl' },
  { key: 'javascript', label: 'JavaScript (fetch)' },
  { key: 'python', label: 'Python (requests)' },
  { key: 'csharp', label: 'C# (HttpClient)' },
] as const;

export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number]['key'];

/** The three variables every sample states first, as docs/integrators.md names them. */
export const SAMPLE_VARIABLES = ['BASE_URL', 'LOGIN', 'TOKEN'] as const;

const LOGIN = 'SU_LOGIN';
const TOKEN = 'SU_TOKEN';

export function requestSamples(baseUrl: string, path: string, body: unknown): Record<SampleLanguage, string> {
  return operationSamples(baseUrl, path, { method: 'POST', body });
}

export interface SampleRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Absent: a request without a body (a job's state, results, cancel, retry). */
  body?: unknown;
  /** Beside the credentials (a job's Idempotency-Key). */
  headers?: Record<string, string>;
}

/**
 * One request in each language: BASE_URL (the environment's {base_url}, ending in /api), LOGIN and
 * TOKEN stated first, so a copied sample says what to replace; then the credentials, any other
 * headers, and the JSON body when there is one.
 */
export function operationSamples(baseUrl: string, path: string, request: SampleRequest): Record<SampleLanguage, string> {
  const { method, body } = request;
  const hasBody = body !== undefined;
  const extra = Object.entries(request.headers ?? {});
  const json = JSON.stringify(body);
  const pretty = JSON.stringify(body, null, 2);
  // A job's results are CSV; a DELETE answers 204 without a body, so only its status is printed.
  const reads = method === 'GET' && path.endsWith('/resultados') ? 'text' : method === 'DELETE' ? 'none' : 'json';
  const curlHeaders = [
    ...(hasBody ? [`-H 'content-type: application/json'`] : []),
    `-H "x-integracion-login: $LOGIN"`,
    `-H "x-integracion-token: $TOKEN"`,
    ...extra.map(([name, value]) => `-H '${name}: ${value}'`),
    ...(hasBody ? [`-d '${json.replaceAll("'", "'\\''")}'`] : []),
  ];
  const jsHeaders = [
    ...(hasBody ? [`'content-type': 'application/json'`] : []),
    `'x-integracion-login': LOGIN`,
    `'x-integracion-token': TOKEN`,
    ...extra.map(([name, value]) => `'${name}': '${value}'`),
  ];
  return {
    curl: [
      `BASE_URL='${baseUrl}'`,
      `LOGIN='${LOGIN}'`,
      `TOKEN='${TOKEN}'`,
      `curl -sS -X ${method} "$BASE_URL${path}" \\`,
      ...curlHeaders.map((line, index) => `  ${line}${index < curlHeaders.length - 1 ? ' \\' : ''}`),
    ].join('\n'),
    javascript: [
      `const BASE_URL = '${baseUrl}';`,
      `const LOGIN = '${LOGIN}';`,
      `const TOKEN = '${TOKEN}';`,
      ``,
      `const respuesta = await fetch(\`\${BASE_URL}${path}\`, {`,
      `  method: '${method}',`,
      `  headers: {`,
      ...jsHeaders.map((line) => `    ${line},`),
      `  },`,
      ...(hasBody ? [`  body: JSON.stringify(${pretty.replaceAll('\n', '\n  ')}),`] : []),
      `});`,
      reads === 'none' ? `console.log(respuesta.status);` : `console.log(respuesta.status, await respuesta.${reads}());`,
    ].join('\n'),
    python: [
      `import requests`,
      ``,
      `BASE_URL = "${baseUrl}"`,
      `LOGIN = "${LOGIN}"`,
      `TOKEN = "${TOKEN}"`,
      ``,
      `respuesta = requests.${method.toLowerCase()}(`,
      `    f"{BASE_URL}${path}",`,
      `    headers={${['"x-integracion-login": LOGIN', '"x-integracion-token": TOKEN', ...extra.map(([name, value]) => `"${name}": "${value}"`)].join(', ')}},`,
      ...(hasBody ? [`    json=${pythonLiteral(body)},`] : []),
      `    timeout=35,`,
      `)`,
      reads === 'none' ? `print(respuesta.status_code)` : `print(respuesta.status_code, respuesta.${reads === 'text' ? 'text' : 'json()'})`,
    ].join('\n'),
    csharp: [
      `using System.Net.Http;`,
      `using System.Text;`,
      ``,
      `const string BASE_URL = "${baseUrl}";`,
      `const string LOGIN = "${LOGIN}";`,
      `const string TOKEN = "${TOKEN}";`,
      ``,
      `using var cliente = new HttpClient { Timeout = TimeSpan.FromSeconds(35) };`,
      `using var solicitud = new HttpRequestMessage(HttpMethod.${method === 'GET' ? 'Get' : method === 'DELETE' ? 'Delete' : method === 'PATCH' ? 'Patch' : 'Post'}, $"{BASE_URL}${path}");`,
      `solicitud.Headers.Add("x-integracion-login", LOGIN);`,
      `solicitud.Headers.Add("x-integracion-token", TOKEN);`,
      ...extra.map(([name, value]) => `solicitud.Headers.Add("${name}", "${value}");`),
      ...(hasBody ? [`solicitud.Content = new StringContent(${csharpString(json)}, Encoding.UTF8, "application/json");`] : []),
      `using var respuesta = await cliente.SendAsync(solicitud);`,
      reads === 'none' ? `Console.WriteLine((int)respuesta.StatusCode);` : `Console.WriteLine($"{(int)respuesta.StatusCode} {await respuesta.Content.ReadAsStringAsync()}");`,
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
