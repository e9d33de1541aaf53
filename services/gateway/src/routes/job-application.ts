import { randomUUID } from "node:crypto";
import type { RequestHandler, Router } from "express";
import type { GatewayEnv } from "@sd/config";
import { JOB_APPLICATION_MESSAGES } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { EndpointRouter } from "../http/endpoint-router";
import { hiringEmail } from "../job-application/hiring-email";
import { readApplication, receiveMultipart } from "../job-application/read-application";
import type { Mailer } from "../mail/mailer";

/**
 * POST /api/job-application: multipart application with an optional PDF resume. The application
 * is stored first; the hiring team's email is sent afterwards, and a mail failure is only logged.
 */
export function jobApplicationRoutes(store: Store, mailer: Mailer, env: GatewayEnv, rateLimit: RequestHandler, logger: Logger): Router {
  return new EndpointRouter("/api").mount(ENDPOINTS.applyForJob, {
    before: [rateLimit, receiveMultipart()],
    handler: async ({ req }) => {
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

      return { status: 200, body: { message: JOB_APPLICATION_MESSAGES.submitted, application_id: ref.id } };
    },
  }).router;
}
