import { LoadingPage } from '@/components/console/page-header';

export default function Loading() {
  return <LoadingPage title="Facturas" />;
}
