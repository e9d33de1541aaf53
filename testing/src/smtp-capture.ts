import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * A real SMTP server on loopback that keeps every message it receives (parsed with mailparser),
 * for tests of product mail: point the gateway's SMTP_URL at `url`.
 */
export class SmtpCapture {
  readonly messages: CapturedMail[] = [];
  private readonly taken = new Set<CapturedMail>();
  private waiters: { match: (mail: CapturedMail) => boolean; resolve: (mail: CapturedMail) => void }[] = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly url: string,
  ) {}

  static async start(): Promise<SmtpCapture> {
    const received: ParsedMail[] = [];
    let deliver = (parsed: ParsedMail): void => {
      received.push(parsed);
    };
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            deliver(parsed);
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    server.listen(0, "127.0.0.1");
    await once(server.server, "listening");
    const { port } = server.server.address() as AddressInfo;
    const capture = new SmtpCapture(server, `smtp://127.0.0.1:${port}`);
    deliver = (parsed) => {
      capture.receive(parsed);
    };
    for (const parsed of received) capture.receive(parsed);
    return capture;
  }

  /** The first message (already received or still to come) that matches, e.g. one sent to an address. */
  next(match: (mail: CapturedMail) => boolean, timeoutMs = 10_000): Promise<CapturedMail> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no matching mail arrived")), timeoutMs);
      this.waiters.push({
        match,
        resolve: (mail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      });
    });
  }

  /** The next message to `address` that was not taken before. */
  async nextTo(address: string, timeoutMs?: number): Promise<CapturedMail> {
    const mail = await this.next((m) => m.to.includes(address.toLowerCase()) && !this.taken.has(m), timeoutMs);
    this.taken.add(mail);
    return mail;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private receive(parsed: ParsedMail): void {
    const addresses = [parsed.to ?? []].flat().flatMap((group) => group.value.map((a) => (a.address ?? "").toLowerCase()));
    const mail: CapturedMail = { to: addresses, subject: parsed.subject ?? "", text: parsed.text ?? "" };
    this.messages.push(mail);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(mail)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(mail);
      }
    }
  }
}
