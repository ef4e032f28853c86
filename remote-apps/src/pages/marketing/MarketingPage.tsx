import styled from 'styled-components';
import { AppIcon, Card, theme } from '@portal/shared';
import { AppIllustration } from '../../components/AppIllustration';
import { tileGrid } from '../../components/lists';
import { FeatureList } from '../../components/Offers';
import { BackToApps, Heading, Lead, Page } from '../../components/Page';

export interface MarketingContent {
  appId: number;
  name: string;
  tagline: string;
  features: string[];
  useCases: { title: string; text: string }[];
}

const Hero = styled.div`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 24px;
  align-items: center;
  margin-bottom: 24px;
  @media (max-width: ${theme.breakpoint.mobile}) { grid-template-columns: 1fr; }
`;

const Title = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
`;

const Sections = styled.div`
  display: grid;
  grid-template-columns: 1fr 2fr;
  gap: 16px;
  margin-bottom: 24px;
  h2 { margin: 0 0 8px; font-size: 1.25rem; }
  @media (max-width: 800px) { grid-template-columns: 1fr; }
`;

const Cases = styled.ul`
  ${tileGrid('200px', 'auto-fit')}
  li { padding: 12px; border-radius: ${theme.radius}; background: ${theme.color.background}; }
  h3 { margin: 0 0 4px; font-size: 1rem; }
  p { margin: 0; color: ${theme.color.muted}; }
`;

/** Spec §2: a marketing page (features, use cases) with 'Volver a Aplicaciones'. */
export function MarketingPage({ content }: { content: MarketingContent }) {
  return (
    <Page>
      <Hero>
        <div>
          <Title>
            <AppIcon app={{ id: content.appId, iconUrl: null }} size={52} />
            <Heading>{content.name}</Heading>
          </Title>
          <Lead>{content.tagline}</Lead>
          <BackToApps />
        </div>
        <AppIllustration appId={content.appId} height={200} />
      </Hero>
      <Sections>
        <Card aria-labelledby="funciones">
          <h2 id="funciones">Funciones</h2>
          <FeatureList items={content.features} />
        </Card>
        <Card aria-labelledby="casos">
          <h2 id="casos">Casos de uso</h2>
          <Cases>
            {content.useCases.map((useCase) => (
              <li key={useCase.title}>
                <h3>{useCase.title}</h3>
                <p>{useCase.text}</p>
              </li>
            ))}
          </Cases>
        </Card>
      </Sections>
    </Page>
  );
}
