/** Addresses the site links to (mailto). */
export const CONTACT = {
  general: "hello@smartdecision.ai",
  support: "support@smartdecision.ai",
  sales: "sales@smartdecision.ai",
  careers: "careers@smartdecision.ai",
} as const;

export const mailto = (address: string, subject?: string): string =>
  `mailto:${address}${subject ? `?subject=${encodeURIComponent(subject)}` : ""}`;
