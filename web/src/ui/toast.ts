import { toast as sonner } from "sonner";

export { Toaster } from "sonner";

/** Toasts with a title and a description, as the specification words them ('Title' / 'Description'). */
export const toast = {
  success: (title: string, description?: string) => sonner.success(title, { description }),
  /** `id`: a toast about one input, so the form can dismiss it once that input is fixed. */
  error: (title: string, description?: string, { id }: { id?: string } = {}) => sonner.error(title, { description, id }),
  info: (title: string, description?: string) => sonner(title, { description }),
  dismiss: (id: string) => sonner.dismiss(id),
};
