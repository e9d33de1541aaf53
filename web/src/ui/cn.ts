import { twMerge } from "tailwind-merge";

/**
 * Joins class names, skipping falsy ones; a later Tailwind class wins over an earlier one of the
 * same kind (e.g. a page's `max-w-3xl` over the layout's `max-w-6xl`), whatever the CSS order.
 */
export const cn = (...classes: (string | false | null | undefined)[]): string => twMerge(classes.filter(Boolean).join(" "));
