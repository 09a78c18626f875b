import type { Metadata } from 'next';
import { connection } from 'next/server';
import './globals.css';

export const metadata: Metadata = {
  title: 'Consulta de contribuyentes',
  description: 'Pasarela de consultas de contribuyentes de Guatemala',
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: its scripts carry the nonce proxy.ts puts in that
  // request's Content-Security-Policy, which a page prerendered at build time could not.
  await connection();
  return (
    <html lang="es">
      <body>{children}</body>
    </html>
  );
}
