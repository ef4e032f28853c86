import { useSearchParams } from 'react-router-dom';
import { AuthorizeProblemScreen } from '../../interaction/AuthorizeProblem';
import { problemOf } from '../../rules/authorization';

/**
 * /autorizar/error?motivo=…: where the API sends the browser when it cannot answer the app itself (an unknown app, a
 * return address the app never registered, a malformed request). Only the reason is read, as one of a fixed list.
 */
export default function AuthorizeErrorPage() {
  const [params] = useSearchParams();
  return <AuthorizeProblemScreen problem={problemOf(params.get('motivo'))} />;
}
