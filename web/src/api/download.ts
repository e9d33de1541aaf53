import { withAuthorization, type AuthorizationSource } from "./authorized";
import { readError } from "./client";

/** The file name the server gives (Content-Disposition), else `fallbackName`. */
function fileNameOf(response: Response, fallbackName: string): string {
  return /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
}

/** Downloads `path` as the signed-in user and hands it to the browser as a file: a bearer header, so a plain link cannot carry it. */
export async function downloadAsUser(path: string, session: AuthorizationSource, fallbackName: string): Promise<void> {
  const { blob, name } = await withAuthorization(session, async (init) => {
    const response = await fetch(path, init);
    if (!response.ok) throw await readError(response);
    return { blob: await response.blob(), name: fileNameOf(response, fallbackName) };
  });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = name;
  anchor.click();
  // After the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
