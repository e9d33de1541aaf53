import { randomUUID } from "node:crypto";
import { Router, type RequestHandler } from "express";
import type { GatewayEnv } from "@sd/config";
import { JOB_APPLICATION_MESSAGES, type JobApplicationResponse } from "@sd/contracts";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { hiringEmail } from "../job-application/hiring-email";
import { readApplication, receiveMultipart } from "../job-application/read-application";
import type { Mailer } from "../mail/mailer";

/**
 * POST /api/job-application: multipart application with an optional PDF resume. The application
 * is stored first; the hiring team's email is sent afterwards, and a mail failure is only logged.
 */
export function jobApplicationRoutes(store: Store, mailer: Mailer, env: GatewayEnv, rateLimit: RequestHandler, logger: Logger): Router {
  const router = Router();
  router.post("/job-application", rateLimit, receiveMultipart(), async (req, res) => {
    const application = readApplication(req);
    const { resume, ...fields } = application;
    const ref = { id: randomUUID(), receivedAt: new Date(), ip: req.ip ?? null };
    await store.applications.insert({
      id: ref.id,
      ...fields,
      resume: resume
        ? { filename: resume.filename, content_type: "application/pdf", size: resume.content.length, data_base64: resume.content.toString("base64") }
        : null,
      created_at: ref.receivedAt,
      ip: ref.ip,
    });
    logger.info({ application_id: ref.id, position: fields.position, resume: resume !== null }, "job application stored");

    // The applicant need not wait for the mail server: the application is already safe in the store.
    mailer.send(hiringEmail(env.HIRING_EMAIL, application, ref)).then(
      () => logger.info({ application_id: ref.id }, "hiring team notified"),
      (error: unknown) => logger.error({ err: error, application_id: ref.id }, "could not email the hiring team; the application is stored"),
    );

    const body: JobApplicationResponse = { message: JOB_APPLICATION_MESSAGES.submitted, application_id: ref.id };
    res.json(body);
  });
  return router;
}
