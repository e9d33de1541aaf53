import { z } from "zod";
import { SHARE_MESSAGES, ShareCreatedSchema, ShareCreateSchema, SharedDecisionResponseSchema, SharedDecisionSchema, sharedPagePath, ShareStatusSchema } from "../index";
import { EXAMPLE_IMAGE, exampleErrors, exampleHistoryItem } from "./examples";
import { json, one, error, tooManyRequests, unauthorized, idParam } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- share links

export const EXAMPLE_SHARE_TOKEN = "q7Lw2VnX8cR4tY1zB6mK0pD3sF9hJ5gA2eU7iO4wQ1x";
const CREATED_AT = "2025-09-08T10:02:00.000Z";

const decisionNotFound = error("No decision with this id is the caller's.", one("Unknown id", exampleErrors.decisionNotFound));
const noRobots = z.object({
  "X-Robots-Tag": z.literal("noindex").meta({ description: "A shared decision is never indexed by search engines.", example: "noindex" }),
  "Cache-Control": z.literal("no-store").meta({ description: "Never cached, so a revoked link stops working at once.", example: "no-store" }),
});

// The schema keeps only the public fields: the owner's email, IP and ids fall away here as on the server.
const exampleShared = SharedDecisionSchema.parse({ ...exampleHistoryItem, images: [] });

export const shareEndpoints = [
  defineEndpoint({
    method: "get",
    path: "/api/decisions/{id}/share",
    tag: "shares",
    operationId: "getDecisionShare",
    summary: "Is my decision shared?",
    description: "Whether the decision has a live share link, since when and with or without its images. The link itself is shown once, when it is created (only its hash is stored).",
    access: "bearer",
    params: idParam("The decision's id."),
    responses: {
      200: {
        description: "The decision's sharing.",
        body: json(ShareStatusSchema, {
          notShared: { summary: "Not shared (the default)", value: { shared: false, include_images: null, created_at: null } },
          shared: { summary: "Shared without images", value: { shared: true, include_images: false, created_at: CREATED_AT } },
        }),
      },
      401: unauthorized,
      404: decisionNotFound,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/decisions/{id}/share",
    tag: "shares",
    operationId: "shareDecision",
    summary: "Create a share link to my decision",
    description:
      "Creates a read-only link to this one decision for anyone who has it. Images are left out unless `include_images` is true. A decision has at most one link: a new one replaces the old, which stops working at once. The token (256 random bits) is answered only here.",
    access: "bearer",
    params: idParam("The decision's id."),
    body: json(ShareCreateSchema, {
      withoutImages: { summary: "Without images (the default)", value: { include_images: false } },
      withImages: { summary: "With the decision's images", value: { include_images: true } },
    }),
    responses: {
      201: {
        description: "The new link: open `path` on this site.",
        body: json(ShareCreatedSchema, one("Created", { shared: true, include_images: false, created_at: CREATED_AT, token: EXAMPLE_SHARE_TOKEN, path: sharedPagePath(EXAMPLE_SHARE_TOKEN) })),
      },
      400: error("The body is invalid.", one("Not a boolean", { detail: "include_images must be true or false." })),
      401: unauthorized,
      404: decisionNotFound,
    },
  }),
  defineEndpoint({
    method: "delete",
    path: "/api/decisions/{id}/share",
    tag: "shares",
    operationId: "revokeDecisionShare",
    summary: "Revoke my decision's share link",
    description: "The link answers 404 from now on. Revoking a decision that is not shared changes nothing.",
    access: "bearer",
    params: idParam("The decision's id."),
    responses: {
      200: { description: "Not shared any more.", body: json(ShareStatusSchema, one("Revoked", { shared: false, include_images: null, created_at: null })) },
      401: unauthorized,
      404: decisionNotFound,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/shared/{token}",
    tag: "shares",
    operationId: "getSharedDecision",
    summary: "Open a shared decision",
    description: "Anyone with the link: the decision read-only, without anything of its owner. Its images only when the owner included them. Rate limited per address.",
    access: "public",
    params: z.object({ token: z.string().meta({ description: "The share link's token.", example: EXAMPLE_SHARE_TOKEN }) }),
    responses: {
      200: {
        description: "The shared decision.",
        headers: noRobots,
        body: json(SharedDecisionResponseSchema, {
          withoutImages: { summary: "Shared without images", value: { success: true, decision: exampleShared } },
          withImages: { summary: "Shared with its images", value: { success: true, decision: { ...exampleShared, images: [{ label: "image1", image_type: "image/png", image_data: EXAMPLE_IMAGE }] } } },
        }),
      },
      404: error("No live link has this token (never created, replaced or revoked).", one("Unknown or revoked", { detail: SHARE_MESSAGES.notFound }), noRobots),
      429: tooManyRequests,
    },
  }),
] as const;
