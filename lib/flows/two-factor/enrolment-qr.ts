import QRCode from 'qrcode';

/**
 * The enrolment QR code as SVG markup, drawn here: the secret it holds never goes to a third-party
 * service. Black on white with a quiet zone, as phone cameras read best.
 */
export function enrolmentQrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
}
