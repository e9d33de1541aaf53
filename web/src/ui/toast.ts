import { toast as sonner } from "sonner";

export { Toaster } from "sonner";

/** Toasts with a title and a description, as the specification words them ('Title' / 'Description'). */
export const toast = {
  success: (title: string, description?: string) => sonner.success(title, { description }),
  error: (title: string, description?: string) => sonner.error(title, { description }),
  info: (title: string, description?: string) => sonner(title, { description }),
};
