import { LoadingPage } from '@/components/console/page-header';

// Only list pages have a skeleton: a Suspense boundary above a detail page would send its 200
// before the page could answer 404 for an unknown id (docs/decisions.md).
export default function Loading() {
  return <LoadingPage title="Mi cuenta" />;
}
