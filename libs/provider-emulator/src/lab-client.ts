import { LAB_ID } from "./prompt-reader";
import type { LabConfig, LabState } from "./lab";
import { CONTROL_TOKEN_HEADER } from "./server";

/** The question text of a labelled question: the marker the lab reads, after the question. */
export function labelledQuestion(question: string, questionId: string): string {
  if (!LAB_ID.test(questionId)) throw new Error(`lab question ids are letters, digits, _ - and ., at most 100: ${JSON.stringify(questionId)}`);
  return `${question} [lab:${questionId}]`;
}

/**
 * A typed client of an emulator's control routes for the accuracy lab, over HTTP, so a process
 * other than the emulator's (the accuracy bench) can script it with its control token.
 */
export class EmulatorLabClient {
  constructor(
    /** The emulator's `http://host:port`. */
    readonly url: string,
    readonly controlToken: string,
  ) {}

  /** Merges questions and models into the lab, replaces gossip and seed when given; answers the lab's state. */
  configure(config: LabConfig): Promise<LabState> {
    return this.#request<LabState>("POST", "/_emulator/lab", config);
  }

  state(): Promise<LabState> {
    return this.#request<LabState>("GET", "/_emulator/lab");
  }

  /** Clears the lab, every rule and the call log. */
  async reset(): Promise<void> {
    await this.#request<unknown>("POST", "/_emulator/reset", {});
  }

  async #request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url.replace(/\/+$/, "")}${path}`, {
      method,
      headers: { "content-type": "application/json", [CONTROL_TOKEN_HEADER]: this.controlToken },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator ${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  }
}
