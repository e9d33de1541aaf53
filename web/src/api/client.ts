/** An HTTP failure with the server's explanation (`detail`, else `message`), as the UI shows it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly title?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function readError(response: Response): Promise<ApiError> {
  let body: { detail?: unknown; message?: unknown; title?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Not JSON: fall back to the status below.
  }
  const text = typeof body.detail === "string" ? body.detail : typeof body.message === "string" ? body.message : `HTTP ${response.status}`;
  return new ApiError(response.status, text, typeof body.title === "string" ? body.title : undefined);
}

/** POSTs JSON and returns the parsed answer; a non-2xx answer throws ApiError. */
export async function postJson<T>(path: string, body: unknown, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, {
    ...init,
    method: "POST",
    headers: { "content-type": "application/json", ...init.headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await readError(response);
  return (await response.json()) as T;
}

export async function getJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, init);
  if (!response.ok) throw await readError(response);
  return (await response.json()) as T;
}
