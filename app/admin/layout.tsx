import { AdminProviders } from "@/components/admin/providers";

// Only the data cache: a layout is not re-run on every navigation, so each admin page checks the
// session itself (lib/auth/page-session.ts).
export default function AdminLayout({ children }: { children: React.ReactNode }) {
  return <AdminProviders>{children}</AdminProviders>;
}
